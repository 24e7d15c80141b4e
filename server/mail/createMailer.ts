import path from 'node:path';
import type { Config } from '../config';
import { FileMailer } from './FileMailer';
import type { MailPort } from './MailPort';
import { SmtpMailer } from './SmtpMailer';

/** SMTP when SMTP_URL is set, otherwise .eml files in DATA_DIR/mail. */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'dataDir' | 'mailFrom'>): MailPort {
  return config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom) : new FileMailer(path.join(config.dataDir, 'mail'), config.mailFrom);
}
