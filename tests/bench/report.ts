/** The figures a benchmark prints: timestamped progress lines, then a table of what it measured. */

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The value at percentile `p` of `sorted` (ascending). */
export function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;
}

export class BenchReport {
  private readonly rows: [string, string][] = [];
  private readonly startedAt = performance.now();

  constructor(private readonly name: string) {}

  // Arrow properties, so that `const { log, record } = report` keeps them bound.
  readonly log = (text: string): void => {
    console.log(`[${this.name} ${((performance.now() - this.startedAt) / 1000).toFixed(1)}s] ${text}`);
  };

  readonly record = (label: string, value: string): void => {
    this.rows.push([label, value]);
    console.log(`  → ${label}: ${value}`);
  };

  print(title: string): void {
    const line = `================ ${title} ================`;
    console.log(`\n${line}`);
    const width = Math.max(0, ...this.rows.map(([label]) => label.length));
    for (const [label, value] of this.rows) console.log(`${label.padEnd(width)}  ${value}`);
    console.log('='.repeat(line.length));
  }
}
