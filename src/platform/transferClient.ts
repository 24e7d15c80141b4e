import * as Comlink from 'comlink';
import type { TransferApi } from '../../workers/transfer/TransferApi';

/** A pool of transfer workers with the TransferApi methods, plus `terminate`. */
export interface TransferPool extends TransferApi {
  readonly size: number;
  /** Stops every worker; calls in flight reject. */
  terminate(): void;
}

interface Slot {
  worker: Worker;
  remote: Comlink.Remote<TransferApi>;
  busy: number;
}

/**
 * Starts `size` transfer workers (workers/transfer/transfer.worker.ts) and sends each call to the
 * least busy one, so chunks encrypt, hash and travel in parallel. Four by default at most: more
 * gains little over HTTP/1.1's six connections per origin and costs a worker's memory each.
 */
export function createTransferPool(size = Math.min(4, globalThis.navigator?.hardwareConcurrency || 2)): TransferPool {
  const count = Math.max(1, Math.floor(size));
  const slots: Slot[] = Array.from({ length: count }, (_, i) => {
    const worker = new Worker(new URL('../../workers/transfer/transfer.worker.ts', import.meta.url), {
      type: 'module',
      name: `cairn-transfer-${i}`,
    });
    return { worker, remote: Comlink.wrap<TransferApi>(worker), busy: 0 };
  });
  let next = 0;

  /** Least busy slot; ties go round-robin so idle workers share the load. */
  function pick(): Slot {
    let best = slots[next % count]!;
    for (let i = 1; i < count; i += 1) {
      const slot = slots[(next + i) % count]!;
      if (slot.busy < best.busy) best = slot;
    }
    next = (slots.indexOf(best) + 1) % count;
    return best;
  }

  async function run<T>(call: (remote: Comlink.Remote<TransferApi>) => Promise<T>): Promise<T> {
    const slot = pick();
    slot.busy += 1;
    try {
      return await call(slot.remote);
    } finally {
      slot.busy -= 1;
    }
  }

  return {
    size: count,
    // The Blob is cloned by reference (no bytes copied); the raw key is copied, not transferred,
    // because the caller reuses it for the next chunk.
    sealChunk: (request) => run((remote) => remote.sealChunk(request)),
    putChunk: (request) => run((remote) => remote.putChunk(request)),
    // The spool is one directory of the origin's, shared by every worker: any one clears it.
    clearSpool: (scope) => run((remote) => remote.clearSpool(scope)),
    downloadChunk: (request) => run((remote) => remote.downloadChunk(request)),
    cacheChunk: (request) => run((remote) => remote.cacheChunk(request)),
    hashChunk: (request) => run((remote) => remote.hashChunk(request)),
    terminate() {
      for (const slot of slots) {
        slot.remote[Comlink.releaseProxy]();
        slot.worker.terminate();
      }
    },
  };
}
