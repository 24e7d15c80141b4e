/**
 * Secrets the `cairn` command reads: never from an argument (arguments land in shell histories
 * and process lists). From an environment variable when set, else from standard input: a prompt
 * that does not echo on a terminal, or one line each when piped (`printf '%s\n%s\n' "$KEY" "$PHRASE" | cairn login ...`).
 */
import { RestoreError } from '../src/network/restoreReader';

export interface CliStdin extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

export interface SecretSource {
  stdin: CliStdin;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const piece of stream) text += typeof piece === 'string' ? piece : Buffer.from(piece).toString('utf8');
  return text;
}

/** Reads one line from a terminal without echoing it (raw mode: Enter ends, Backspace erases, Ctrl-C quits). */
export function promptHidden(io: Pick<SecretSource, 'stdin' | 'stderr'>, prompt: string): Promise<string> {
  io.stderr.write(prompt);
  const stdin = io.stdin;
  stdin.setRawMode?.(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let text = '';
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      io.stderr.write('\n');
    };
    const onData = (data: Buffer | string) => {
      for (const char of data.toString()) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          done();
          resolve(text);
          return;
        }
        if (char === '\u0003') {
          done();
          reject(new RestoreError('BAD_INPUT', 'Cancelled.'));
          return;
        }
        if (char === '\u007f' || char === '\b') text = text.slice(0, -1);
        else text += char;
      }
    };
    stdin.on('data', onData);
  });
}

/** Hands out secrets in the order asked: env first, else the terminal, else the next piped line. */
export class SecretReader {
  private lines: Promise<string[]> | null = null;

  constructor(private readonly io: SecretSource) {}

  async read(prompt: string, envName: string): Promise<string> {
    const fromEnv = this.io.env[envName];
    if (fromEnv?.trim()) return fromEnv.trim();
    if (this.io.stdin.isTTY) return (await promptHidden(this.io, prompt)).trim();
    this.lines ??= readAll(this.io.stdin).then((text) => text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean));
    const lines = await this.lines;
    const line = lines.shift();
    if (line === undefined) throw new RestoreError('BAD_INPUT', `${prompt.replace(/:\s*$/, '')} is missing: pipe it on standard input or set ${envName}.`);
    return line;
  }
}
