import { ApiError } from '../../src/protocol/errors';
import { MemoryRateCounters, type RateCounters } from './rateCounters';

/**
 * A per-account budget of `max` requests a minute for one route: `spend(userId)` counts one
 * request or throws 429 RATE_LIMITED with `message`. Fixed windows from each account's first
 * request. Counted in this process by default; with `shared` (several processes on one
 * PostgreSQL, issue 20) in the database under `shared.name`, so every process spends one budget.
 */
export function createMinuteBudget(
  max: number,
  message: string,
  clock: () => number,
  shared?: { counters: RateCounters; name: string },
): (userId: string) => Promise<void> {
  const counters = shared?.counters ?? new MemoryRateCounters();
  const prefix = `budget|${shared?.name ?? ''}|`;
  return async (userId) => {
    const { count } = await counters.hit(`${prefix}${userId}`, 60_000, clock());
    if (count > max) throw new ApiError('RATE_LIMITED', message);
  };
}
