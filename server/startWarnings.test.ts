import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { type WarnLog, warnAboutSettings } from './startWarnings';

/** A logger that keeps what it is told. */
function capture(): { log: WarnLog; lines: { fields: Record<string, unknown>; message: string }[] } {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  return { log: { warn: (fields, message) => lines.push({ fields, message }) }, lines };
}

describe('start warnings (issue 20)', () => {
  it('warns once each: mail only to files, a localhost PUBLIC_URL, permanent vaults on the embedded gateway', () => {
    const { log, lines } = capture();
    warnAboutSettings(loadConfig({ DATA_DIR: '/srv/cairn' }), log);
    expect(lines.map((l) => l.fields.warning)).toEqual(['mail-to-files', 'localhost-public-url', 'embedded-gateway']);
    expect(lines[0]!.message).toContain('only written to files');
    expect(lines[1]).toMatchObject({ fields: { publicUrl: 'http://localhost:8080' } });
    expect(lines[2]!.message).toContain('not the permanent network');
  });

  it('says nothing for a real deployment', () => {
    const { log, lines } = capture();
    warnAboutSettings(
      loadConfig({
        SMTP_URL: 'smtps://u:secret@smtp.example.com:465',
        PUBLIC_URL: 'https://vault.example.com',
        ARWEAVE_GATEWAY: 'https://arweave.net',
        ARWEAVE_WALLET: '/srv/wallet.json',
      }),
      log,
    );
    expect(lines).toEqual([]);
  });

  it('counts 127.x and ::1 as localhost, and never logs the SMTP password', () => {
    for (const url of ['http://127.0.0.1:8080', 'http://[::1]:8080', 'http://app.localhost']) {
      const { log, lines } = capture();
      warnAboutSettings(loadConfig({ PUBLIC_URL: url, SMTP_URL: 'smtps://u:secret@smtp.example.com', ARWEAVE_GATEWAY: 'https://arweave.net' }), log);
      expect(lines.map((l) => l.fields.warning)).toEqual(['localhost-public-url']);
      expect(JSON.stringify(lines)).not.toContain('secret');
    }
  });

  it('warns when SMS codes only go to files, and not with a real SMS provider', () => {
    const deployed = { SMTP_URL: 'smtps://smtp.example.com', PUBLIC_URL: 'https://vault.example.com', ARWEAVE_GATEWAY: 'https://arweave.net', ARWEAVE_WALLET: '/srv/wallet.json' };
    const files = capture();
    warnAboutSettings(loadConfig({ ...deployed, DATA_DIR: '/srv/cairn', SMS_TO_FILES: '1' }), files.log);
    expect(files.lines).toEqual([{ fields: { warning: 'sms-to-files', smsDir: '/srv/cairn/sms' }, message: expect.stringContaining('reach no phone') }]);
    const provider = capture();
    warnAboutSettings(loadConfig({ ...deployed, SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'https://sms.example.com', SMS_WEBHOOK_TOKEN: 'relay-token-secret' }), provider.log);
    expect(provider.lines).toEqual([]);
  });
});
