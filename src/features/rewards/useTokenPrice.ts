import { useEffect, useState } from 'react';
import { getApiClient } from '../../platform/apiClient';
import { TokenPrice } from '../../protocol/ledger';

/** Spec 002 section 9: the price is polled every 30 s. */
export const PRICE_POLL_MS = 30_000;

/**
 * The dollar price of 1 U (SYNC_SPEC R121), read now and every 30 s while the page is open.
 * `undefined` while the first read is under way; null when the server has none or cannot be read.
 */
export function useTokenPrice(): number | null | undefined {
  const [usd, setUsd] = useState<number | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    const read = async () => {
      try {
        const price = await getApiClient().get('/utoken/price', TokenPrice);
        if (live) setUsd(price.usd);
      } catch {
        // Offline or refused: the page says it cannot display the value, and the next poll tries again.
        if (live) setUsd(null);
      }
    };
    void read();
    const timer = window.setInterval(() => void read(), PRICE_POLL_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, []);
  return usd;
}

/** The spec's text when there is no price (spec 002 section 8). */
export const PRICE_UNAVAILABLE_TEXT = "We're currently unable to display the dollar value";

/** A balance (millionths of a U) in dollars at `usd` per U, to the cent: '$1,234.56'. */
export function formatDollarValue(micro: bigint, usd: number): string {
  const dollars = (Number(micro) / 1_000_000) * usd;
  return dollars.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
