/**
 * Reads what FileMailer and FileSms wrote: .eml files in DATA_DIR/mail (quoted-printable bodies
 * decoded) and .txt files in DATA_DIR/sms. Usable by end-to-end tests too.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface StoredMail {
  file: string;
  to: string;
  subject: string;
  /** The whole message with quoted-printable decoded. */
  decoded: string;
  /** Every http(s) link in the plain-text part, in order. */
  links: string[];
}

export function readMailbox(dataDir: string): StoredMail[] {
  const dir = path.join(dataDir, 'mail');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => {
      const raw = fs.readFileSync(path.join(dir, name), 'utf8');
      const decoded = decodeQuotedPrintable(raw);
      const header = (field: string) => new RegExp(`^${field}: (.*)$`, 'mi').exec(raw)?.[1]?.trim() ?? '';
      const textPart = decoded.split(/Content-Type: text\/html/i)[0] ?? decoded;
      return {
        file: name,
        to: header('To'),
        subject: header('Subject'),
        decoded,
        links: [...textPart.matchAll(/https?:\/\/[^\s"<>]+/g)].map((m) => m[0]),
      };
    });
}

/** The newest mail to `to`, or undefined. */
export function latestMailTo(dataDir: string, to: string): StoredMail | undefined {
  return readMailbox(dataDir)
    .filter((mail) => mail.to.toLowerCase().includes(to.toLowerCase()))
    .at(-1);
}

/** The newest 6-digit code texted to `phoneNumber`, or undefined. */
export function latestSmsCode(dataDir: string, phoneNumber: string): string | undefined {
  const dir = path.join(dataDir, 'sms');
  if (!fs.existsSync(dir)) return undefined;
  const digits = phoneNumber.replace(/\D/g, '');
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.includes(`-${digits}`))
    .map((name) => ({ name, mtime: fs.statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => a.mtime - b.mtime || a.name.localeCompare(b.name));
  const last = files.at(-1);
  if (!last) return undefined;
  return /\b(\d{6})\b/.exec(fs.readFileSync(path.join(dir, last.name), 'utf8'))?.[1];
}

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
