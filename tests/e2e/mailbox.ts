import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One e-mail the server wrote as an .eml file into DATA_DIR/mail. */
export interface Mail {
  file: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
}

function decodePart(headers: string, body: string): string {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** Decodes every leaf part of a MIME message (enough for the server's own messages). */
function decodeMessage(raw: string): { headers: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split);
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  if (!boundary) return { headers, text: decodePart(headers, body) };
  const parts = body.split(`--${boundary}`).slice(1, -1);
  return { headers, text: parts.map((part) => decodeMessage(part.replace(/^\r?\n/, '')).text).join('\n') };
}

function header(headers: string, name: string): string {
  const unfolded = headers.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded)?.[1]?.trim() ?? '';
}

export function readMails(dataDir: string): Mail[] {
  const dir = join(dataDir, 'mail');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.eml'))
    .sort()
    .map((file) => {
      const raw = readFileSync(join(dir, file), 'utf8');
      const { headers, text } = decodeMessage(raw);
      const links = [...new Set(text.match(/https?:\/\/[^\s"'<>)]+/g) ?? [])].map((l) => l.replace(/&amp;/g, '&'));
      return { file, to: header(headers, 'to'), subject: header(headers, 'subject'), text, links };
    });
}

/** Waits for the newest e-mail to `to` whose links include `pathPart`, and returns that link. */
export async function waitForMailLink(dataDir: string | readonly string[], to: string, pathPart: string, after = 0): Promise<string> {
  const deadline = Date.now() + 15_000;
  // Several processes (deployment.spec.ts) each write to their own DATA_DIR: their mail, in order.
  const dirs = typeof dataDir === 'string' ? [dataDir] : dataDir;
  for (;;) {
    const mails = dirs.flatMap(readMails).sort((x, y) => x.file.localeCompare(y.file)).filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));
    const link = mails.slice(after).reverse().flatMap((m) => m.links).find((l) => l.includes(pathPart));
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`No e-mail to ${to} with a link to ${pathPart}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function countMails(dataDir: string, to: string): number {
  return readMails(dataDir).filter((m) => m.to.toLowerCase().includes(to.toLowerCase())).length;
}
