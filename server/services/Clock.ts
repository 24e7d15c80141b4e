/** Time source for expiries and TOTP, replaceable in tests. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * The system clock moved `offsetMs` ahead (CAIRN_TEST_CLOCK_OFFSET_MS), so an end-to-end test can
 * restart a real server past an expiry. 0 is the system clock itself.
 */
export function offsetClock(offsetMs: number): Clock {
  return offsetMs === 0 ? systemClock : { now: () => Date.now() + offsetMs };
}
