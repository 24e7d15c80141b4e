/**
 * A background loop of passes, as the Arweave relay and the webhook dispatcher run: passes never
 * overlap (a test's `runOnce` waits for the loop's), the next one comes after the delay the owner
 * asks for, and `wake` brings it forward to now. A wake during a pass is for the pass after it
 * (`isWakeDuringPassKept`: what was queued during the pass is not left until the next interval)
 * or dropped (the pass in progress is taken to cover it); a wake after a pass ended is always kept.
 */
/** The wait after a pass whose owner could not say when the next is due. */
const FALLBACK_DELAY_MS = 5_000;

export class PassLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private wakeAgain = false;

  constructor(
    /** The loop's own pass (it may decide to do nothing, as a relay that does not lead). */
    private readonly tick: () => Promise<void>,
    /** The wait before the next pass, asked after each one. */
    private readonly nextDelay: () => number | Promise<number>,
    private readonly onError: (error: unknown) => void,
    private readonly isWakeDuringPassKept: boolean,
  ) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Starts the loop with a pass at once. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  wake(): void {
    if (this.stopped) return;
    // A pass in progress: kept for the pass after it, or taken as covered by it.
    if (this.running && !this.isWakeDuringPassKept) return;
    if (this.running || !this.timer) {
      // No timer: between the loop's tick and its pass (one pass more, harmless), or after a pass
      // while its next delay is asked (nothing would cover the wake: it must be kept).
      this.wakeAgain = true;
      return;
    }
    this.schedule(0);
  }

  /** Stops the loop and waits for the pass in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Runs `pass` once no other is running: every pass, the loop's and the tests', goes through here. */
  async exclusive(pass: () => Promise<void>): Promise<void> {
    while (this.running) await this.running;
    const running = pass().finally(() => {
      this.running = null;
    });
    this.running = running;
    await running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wakeAgain = false;
      this.tick()
        .catch((error: unknown) => this.onError(error))
        .then(async () => (this.wakeAgain ? 0 : await this.nextDelay()))
        .catch((error: unknown) => {
          this.onError(error);
          return FALLBACK_DELAY_MS;
        })
        // A wake kept while the delay was being asked for.
        .then((delay) => this.schedule(this.wakeAgain ? 0 : delay));
    }, delayMs);
  }
}
