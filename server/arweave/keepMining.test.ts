/** The embedded gateway's miner (keepMining): one mine at a time, the next a while after it ends. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepMining } from './embeddedArlocal';

afterEach(() => vi.useRealTimers());

describe('keepMining', () => {
  it('never starts a mine while one is under way, and stops', async () => {
    vi.useFakeTimers();
    let running = 0;
    let most = 0;
    let mines = 0;
    // A slow gateway: each mine takes 5 s, more than the 2 s between mines.
    const mine = async () => {
      running += 1;
      mines += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      running -= 1;
    };
    const stop = keepMining(mine, 2_000);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(mines).toBe(0);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(most).toBe(1);
    // 2 s of wait and 5 s of mine, over and over: mines start at 2, 9, 16, 23 and 30 s.
    expect(mines).toBe(5);
    stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(mines).toBe(5);
  });

  it('goes on after a failed mine', async () => {
    vi.useFakeTimers();
    let mines = 0;
    const stop = keepMining(async () => {
      mines += 1;
      throw new Error('gateway down');
    }, 1_000);
    await vi.advanceTimersByTimeAsync(3_500);
    expect(mines).toBe(3);
    stop();
  });
});
