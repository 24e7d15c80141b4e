import nodemailer from 'nodemailer';
import { MAIL_FROM, type MailMessage, type MailPort } from './MailPort';

/** Sends through the SMTP server of SMTP_URL (smtp:// or smtps://, credentials in the URL). */
export class SmtpMailer implements MailPort {
  private readonly transport;

  constructor(
    smtpUrl: string,
    /** MAIL_FROM. */
    private readonly from: string = MAIL_FROM,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }

  close(): void {
    this.transport.close();
  }
}
