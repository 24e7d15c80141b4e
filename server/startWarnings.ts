/**
 * Settings that work on one machine but are wrong for a real deployment (issue 20). main.ts calls
 * `warnAboutSettings` once at start with the server's logger, so each warning is one structured
 * line per start, not one per request.
 */
import type { Config } from './config';

export interface WarnLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface StartWarning {
  /** Stable, for log searches and tests. */
  id: 'mail-to-files' | 'localhost-public-url' | 'embedded-gateway' | 'sms-to-files';
  message: string;
  fields: Record<string, unknown>;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1', '0.0.0.0']);

export function startWarnings(config: Pick<Config, 'smtpUrl' | 'publicUrl' | 'arweaveGateway' | 'dataDir'> & Partial<Pick<Config, 'smsToFiles'>>): StartWarning[] {
  const warnings: StartWarning[] = [];
  if (!config.smtpUrl) {
    warnings.push({
      id: 'mail-to-files',
      message: 'SMTP_URL is not set: mail (verification links, invitations, recovery) is only written to files in DATA_DIR/mail and reaches nobody',
      fields: { mailDir: `${config.dataDir}/mail` },
    });
  }
  const host = new URL(config.publicUrl).hostname.toLowerCase();
  if (LOCAL_HOSTS.has(host) || host.endsWith('.localhost') || host.startsWith('127.')) {
    warnings.push({
      id: 'localhost-public-url',
      message: 'PUBLIC_URL is a localhost address: links in mail work only on this machine; set it to the address users open',
      fields: { publicUrl: config.publicUrl },
    });
  }
  if (!config.arweaveGateway) {
    warnings.push({
      id: 'embedded-gateway',
      message: 'ARWEAVE_GATEWAY is not set: permanent vaults go to the embedded test gateway in DATA_DIR, not the permanent network',
      fields: {},
    });
  }
  if (config.smsToFiles) {
    // SMS two-factor is offered, but a user who turns it on can only log in with a code read from
    // the server's disk: fine for tests, a lock-out anywhere else.
    warnings.push({
      id: 'sms-to-files',
      message: 'SMS_TO_FILES is set: two-factor codes are only written to files in DATA_DIR/sms and reach no phone; set SMS_PROVIDER for real text messages',
      fields: { smsDir: `${config.dataDir}/sms` },
    });
  }
  return warnings;
}

/** Logs each warning that applies, once. */
export function warnAboutSettings(config: Parameters<typeof startWarnings>[0], log: WarnLog): void {
  for (const warning of startWarnings(config)) log.warn({ warning: warning.id, ...warning.fields }, warning.message);
}
