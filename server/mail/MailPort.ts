/** A message ready to send: plain text plus a simple HTML alternative. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Outgoing e-mail. `FileMailer` (default) writes .eml files; `SmtpMailer` sends through SMTP_URL. */
export interface MailPort {
  send(message: MailMessage): Promise<void>;
  close?(): void;
}

/** The default From; MAIL_FROM (config.mailFrom) replaces it. */
export const MAIL_FROM = 'Cairn <no-reply@cairn.local>';
