/**
 * Progress on standard error: one line rewritten in place on a terminal, else a plain line each
 * time the percentage passes another tenth (a log or CI keeps a few lines, not thousands).
 */
import { formatBytes } from '../src/domain/formatting';

export class ProgressLine {
  private shown = false;
  private lastTenth = -1;

  constructor(
    private readonly stderr: NodeJS.WritableStream & { isTTY?: boolean },
    private readonly label: string,
  ) {}

  private get isTTY(): boolean {
    return this.stderr.isTTY === true;
  }

  update(done: number, total: number): void {
    const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
    const text = `${this.label}: ${percent}% (${formatBytes(done)} of ${formatBytes(total)})`;
    if (this.isTTY) {
      this.stderr.write(`\r\u001b[2K${text}`);
      this.shown = true;
      return;
    }
    const tenth = Math.floor(percent / 10);
    if (tenth === this.lastTenth) return;
    this.lastTenth = tenth;
    this.stderr.write(`${text}\n`);
  }

  /** A line of its own, above the progress line. */
  note(line: string): void {
    if (this.isTTY && this.shown) this.stderr.write('\r\u001b[2K');
    this.stderr.write(`${line}\n`);
  }

  end(): void {
    if (this.isTTY && this.shown) this.stderr.write('\n');
    this.shown = false;
  }
}
