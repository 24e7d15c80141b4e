import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../privateFiles';
import { MAIL_FROM, type MailMessage, type MailPort } from './MailPort';

/**
 * Writes each message as an RFC 822 .eml file to `dir` (DATA_DIR/mail), named
 * `<ISO time>-<random>.eml` so a directory listing sorts by time. Open one in any mail client.
 * Private to the server's user (0700 folder, 0600 files): a message may carry a recovery link.
 */
export class FileMailer implements MailPort {
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

  constructor(
    private readonly dir: string,
    /** MAIL_FROM. */
    private readonly from: string = MAIL_FROM,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail({ from: this.from, ...message });
    if (!Buffer.isBuffer(info.message)) throw new Error('nodemailer did not return a buffer');
    await makePrivateDir(this.dir);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    await fs.writeFile(path.join(this.dir, `${stamp}-${crypto.randomBytes(4).toString('hex')}.eml`), info.message, { mode: PRIVATE_FILE_MODE });
  }

  close(): void {
    this.transport.close();
  }
}
