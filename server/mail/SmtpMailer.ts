import nodemailer from 'nodemailer';
import { MAIL_FROM, type MailMessage, type MailPort } from './MailPort';

/** Sends through the SMTP server of SMTP_URL (smtp:// or smtps://, credentials in the URL). */
export class SmtpMailer implements MailPort {
  private readonly transport;

  constructor(smtpUrl: string) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: MAIL_FROM, ...message });
  }

  close(): void {
    this.transport.close();
  }
}
