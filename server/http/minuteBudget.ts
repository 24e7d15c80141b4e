import { ApiError } from '../../src/protocol/errors';

/**
 * A per-account budget of `max` requests a minute for one route, kept in this process (like the
 * auth routes' limiter): `spend(userId)` counts one request or throws 429 RATE_LIMITED with
 * `message`. Fixed windows from each account's first request; ended windows are forgotten, so the
 * map stays as small as the accounts using the route right now.
 */
export function createMinuteBudget(max: number, message: string, clock: () => number): (userId: string) => void {
  const budgets = new Map<string, { windowStart: number; used: number }>();
  return (userId) => {
    const now = clock();
    const budget = budgets.get(userId);
    if (!budget || now - budget.windowStart >= 60_000) {
      for (const [id, other] of budgets) if (now - other.windowStart >= 60_000) budgets.delete(id);
      budgets.set(userId, { windowStart: now, used: 1 });
      return;
    }
    budget.used += 1;
    if (budget.used > max) throw new ApiError('RATE_LIMITED', message);
  };
}
