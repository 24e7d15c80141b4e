/**
 * An ordered pipeline with a bounded window: items are produced in parallel (chunks fetched,
 * verified and decrypted by the transfer workers) and consumed strictly in index order (written
 * to a download stream), each consume awaited before the next, so a slow consumer holds the
 * producers back instead of letting results pile up in memory.
 */

export interface PumpInOrderOptions<T> {
  /** Items 0..count-1. */
  count: number;
  /** At most this many `produce` calls run at once. */
  concurrency: number;
  /**
   * At most this many items exist at once, counted from the next one to consume: produced and
   * waiting, being produced, or being consumed. Item `i` starts only once item `i - window` has
   * been consumed. This bounds memory to `window` items whatever `count` is.
   */
  window: number;
  produce: (index: number) => Promise<T>;
  /** Called in index order, one at a time; its promise is the backpressure. */
  consume: (item: T, index: number) => Promise<void>;
  /** Aborting stops the pump: no new item starts and the pump rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Resolves once every item was consumed. Rejects with the first failure (of a produce, a consume
 * or the signal) as soon as it happens: items still being produced are dropped when they arrive,
 * and no consume runs after a failure, so nothing past a bad item is ever handed on.
 */
export function pumpInOrder<T>(options: PumpInOrderOptions<T>): Promise<void> {
  const { count, produce, consume, signal } = options;
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const window = Math.max(1, Math.floor(options.window));
  return new Promise<void>((resolve, reject) => {
    const ready = new Map<number, T>();
    let nextStart = 0;
    let nextConsume = 0;
    let running = 0;
    let isConsuming = false;
    let isSettled = false;

    const onAbort = () => fail(signal!.reason);
    function settle() {
      isSettled = true;
      ready.clear();
      signal?.removeEventListener('abort', onAbort);
    }
    function fail(error: unknown) {
      if (isSettled) return;
      settle();
      reject(error);
    }

    function startMore() {
      while (!isSettled && running < concurrency && nextStart < count && nextStart < nextConsume + window) {
        const index = nextStart;
        nextStart += 1;
        running += 1;
        // Through a resolved promise so a produce that throws synchronously rejects the same way.
        Promise.resolve()
          .then(() => produce(index))
          .then(
            (item) => {
              running -= 1;
              if (isSettled) return;
              ready.set(index, item);
              void drain();
            },
            (error: unknown) => {
              running -= 1;
              fail(error);
            },
          );
      }
    }

    async function drain() {
      // One consumer loop at a time; an item that arrives meanwhile is picked up by the loop.
      if (isConsuming) return;
      isConsuming = true;
      try {
        while (!isSettled && ready.has(nextConsume)) {
          const item = ready.get(nextConsume)!;
          ready.delete(nextConsume);
          await consume(item, nextConsume);
          nextConsume += 1;
          startMore();
        }
        if (!isSettled && nextConsume === count) {
          settle();
          resolve();
        }
      } catch (error) {
        fail(error);
      } finally {
        isConsuming = false;
      }
    }

    if (signal?.aborted) return fail(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (count === 0) {
      settle();
      resolve();
      return;
    }
    startMore();
  });
}
