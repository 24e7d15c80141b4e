/** The background loop of the Arweave relay and the webhook dispatcher (server/passLoop.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PassLoop } from './passLoop';

afterEach(() => vi.useRealTimers());

/** A loop whose passes each wait for `release()`, counting them. */
function loopOf(isWakeDuringPassKept: boolean, delayMs = 60_000) {
  let passes = 0;
  let release: () => void = () => undefined;
  const loop: PassLoop = new PassLoop(
    () =>
      loop.exclusive(async () => {
        passes += 1;
        await new Promise<void>((resolve) => (release = resolve));
      }),
    () => delayMs,
    (error) => {
      throw error;
    },
    isWakeDuringPassKept,
  );
  return { loop, passes: () => passes, release: () => release() };
}

describe('PassLoop', () => {
  it('runs a pass at start, the next after the delay, and one at once when woken while idle', async () => {
    vi.useFakeTimers();
    const { loop, passes, release } = loopOf(true);
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes()).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(59_000);
    expect(passes()).toBe(1);
    loop.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes()).toBe(2);
    release();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(passes()).toBe(3);
    release();
    await loop.stop();
  });

  it('keeps a wake during a pass for the pass right after it, or drops it', async () => {
    vi.useFakeTimers();
    for (const isKept of [true, false]) {
      const { loop, passes, release } = loopOf(isKept);
      loop.start();
      await vi.advanceTimersByTimeAsync(0);
      loop.wake();
      release();
      await vi.advanceTimersByTimeAsync(10);
      expect(passes()).toBe(isKept ? 2 : 1);
      release();
      await loop.stop();
    }
  });

  it('keeps a wake that comes after a pass ended, while the next delay is still being asked, in both modes', async () => {
    vi.useFakeTimers();
    for (const isKept of [true, false]) {
      let passes = 0;
      let answerDelay: (ms: number) => void = () => undefined;
      const loop: PassLoop = new PassLoop(
        () =>
          loop.exclusive(async () => {
            passes += 1;
          }),
        // As the relay asks its database when the next attempt is due.
        () => new Promise<number>((resolve) => (answerDelay = resolve)),
        (error) => {
          throw error;
        },
        isKept,
      );
      loop.start();
      await vi.advanceTimersByTimeAsync(0);
      expect(passes).toBe(1);
      // The pass is over; the loop waits for its delay. A version accepted now wakes it.
      loop.wake();
      answerDelay(600_000);
      await vi.advanceTimersByTimeAsync(10);
      expect(passes).toBe(2);
      answerDelay(600_000);
      await loop.stop();
    }
  });

  it('never runs two passes at once, and stops after the pass in progress', async () => {
    vi.useFakeTimers();
    const { loop, passes, release } = loopOf(true, 0);
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    let isOtherDone = false;
    const other = loop.exclusive(async () => void (isOtherDone = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(isOtherDone).toBe(false);
    const stopped = loop.stop();
    release();
    await stopped;
    await other;
    expect(isOtherDone).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passes()).toBe(1);
  });
});
