import fs from 'node:fs/promises';
import path from 'node:path';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../privateFiles';
import type { SmsPort } from './SmsPort';

/**
 * Writes each text message to `<dir>/<timestamp>-<digits>.txt` (digits of the phone number), so a
 * single-machine install works without a provider and tests can read the code. Private to the
 * server's user (0700 folder, 0600 files): each holds a login code.
 */
export class FileSms implements SmsPort {
  constructor(private readonly dir: string) {}

  async send(message: { to: string; text: string }): Promise<void> {
    await makePrivateDir(this.dir);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const base = `${stamp}-${message.to.replace(/\D/g, '')}`;
    const content = `To: ${message.to}\n\n${message.text}\n`;
    // 'wx' and a counter: two messages to one number in the same millisecond must both be kept.
    for (let n = 1; ; n += 1) {
      const file = path.join(this.dir, n === 1 ? `${base}.txt` : `${base}-${n}.txt`);
      try {
        await fs.writeFile(file, content, { flag: 'wx', mode: PRIVATE_FILE_MODE });
        return;
      } catch (error) {
        if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
      }
    }
  }
}
