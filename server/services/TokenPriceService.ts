/**
 * The U token's price in dollars (SYNC_SPEC R121), for the dollar value the Rewards page shows next
 * to the balance. The operator names a price source with TOKEN_PRICE_URL, which answers
 * `{"usd": <number>}` (the price of 1 U in US dollars); the server asks it at most once per
 * PRICE_CACHE_MS and answers every client from that, so clients polling every 30 s (spec 002
 * section 9) never multiply into requests to the source. Without a source, or when it fails, is
 * slow or answers anything else, the price is null and the client says it cannot show the value.
 */
import { z } from 'zod';
import type { TokenPrice } from '../../src/protocol/ledger';
import type { Clock } from './Clock';

/** How long an answer (a price, or none after a failure) is reused. */
export const PRICE_CACHE_MS = 30_000;
/** How long the source may take before the price counts as unavailable. */
export const PRICE_TIMEOUT_MS = 5_000;

/** What the price source answers. */
const SourceAnswer = z.object({ usd: z.number().finite().nonnegative() });

/** The port the source is asked through (global fetch in production). */
export type PriceFetch = (url: string, init: { signal: AbortSignal; headers: Record<string, string> }) => Promise<{ ok: boolean; json(): Promise<unknown> }>;

export interface PriceLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

export class TokenPriceService {
  private cached: { at: number; price: TokenPrice } | null = null;
  private inflight: Promise<TokenPrice> | null = null;

  constructor(
    private readonly clock: Clock,
    /** TOKEN_PRICE_URL; null: no dollar value. */
    private readonly url: string | null,
    private readonly fetcher: PriceFetch = (url, init) => fetch(url, init),
    private readonly log: PriceLog | null = null,
  ) {}

  async price(): Promise<TokenPrice> {
    if (this.url === null) return { usd: null };
    if (this.cached && this.clock.now() - this.cached.at < PRICE_CACHE_MS) return this.cached.price;
    // Requests that arrive while the source is being asked share its one answer.
    this.inflight ??= this.ask(this.url).finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private async ask(url: string): Promise<TokenPrice> {
    let price: TokenPrice = { usd: null };
    try {
      const response = await this.fetcher(url, { signal: AbortSignal.timeout(PRICE_TIMEOUT_MS), headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error('The price source answered an error status');
      price = { usd: SourceAnswer.parse(await response.json()).usd };
    } catch (error) {
      // The page says the value is unavailable; the operator finds why here.
      this.log?.warn({ err: error instanceof Error ? error.message : String(error) }, 'token price unavailable');
    }
    this.cached = { at: this.clock.now(), price };
    return price;
  }
}
