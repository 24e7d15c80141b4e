import * as Comlink from 'comlink';
import { plainChunkSize, type ChunkHeader } from '../crypto/fileChunks';
import type { TransferApi } from '../../workers/transfer/TransferApi';

/** A pool of transfer workers with the TransferApi methods, plus `terminate`. */
export interface TransferPool extends TransferApi {
  readonly size: number;
  /** Stops every worker; calls in flight reject. */
  terminate(): void;
}

/** What the pool needs of a worker: a Comlink endpoint it can stop. */
export type TransferWorker = Comlink.Endpoint & { terminate(): void };

export interface TransferPoolOptions {
  /** Starts worker `index`; the default runs workers/transfer/transfer.worker.ts. */
  createWorker?: (index: number) => TransferWorker;
  /** Chunk bytes a worker handles before it is replaced by a fresh one (see RECYCLE_AFTER_BYTES). */
  recycleAfterBytes?: number;
}

/**
 * A transfer worker is replaced by a fresh one once it has handled this many chunk bytes and is
 * idle. Every chunk leaves buffers of megabytes behind in the worker (the fetched, sealed and
 * opened bytes), and Chromium frees them only when that worker collects garbage, which a worker
 * with a small heap seldom does: a long download grew the tab by hundreds of MiB, most of it
 * garbage in the workers. A fresh worker starts empty; starting one costs a few milliseconds.
 */
export const RECYCLE_AFTER_BYTES = 64 * 1024 * 1024;

interface Slot {
  worker: TransferWorker;
  remote: Comlink.Remote<TransferApi>;
  busy: number;
  /** Chunk bytes handled so far. */
  bytes: number;
}

function defaultWorker(index: number): TransferWorker {
  return new Worker(new URL('../../workers/transfer/transfer.worker.ts', import.meta.url), {
    type: 'module',
    name: `cairn-transfer-${index}`,
  });
}

/** Plaintext bytes of chunk `index`, for the pool's count (0 when the request is malformed: the worker refuses it). */
function chunkBytes(index: number, header: ChunkHeader): number {
  try {
    return plainChunkSize(index, header);
  } catch {
    return 0;
  }
}

/**
 * Starts `size` transfer workers and sends each call to the least busy one, so chunks encrypt,
 * hash and travel in parallel. Four by default at most: more gains little over HTTP/1.1's six
 * connections per origin and costs a worker's memory each. Workers are recycled as
 * RECYCLE_AFTER_BYTES says.
 */
export function createTransferPool(size = Math.min(4, globalThis.navigator?.hardwareConcurrency || 2), options: TransferPoolOptions = {}): TransferPool {
  const count = Math.max(1, Math.floor(size));
  const createWorker = options.createWorker ?? defaultWorker;
  const recycleAfterBytes = options.recycleAfterBytes ?? RECYCLE_AFTER_BYTES;
  const start = (index: number): Slot => {
    const worker = createWorker(index);
    return { worker, remote: Comlink.wrap<TransferApi>(worker), busy: 0, bytes: 0 };
  };
  const stop = (slot: Slot) => {
    slot.remote[Comlink.releaseProxy]();
    slot.worker.terminate();
  };
  const slots: Slot[] = Array.from({ length: count }, (_, i) => start(i));
  let next = 0;
  let isTerminated = false;

  /** Least busy slot; ties go round-robin so idle workers share the load. */
  function pick(): number {
    let best = next % count;
    for (let i = 1; i < count; i += 1) {
      const index = (next + i) % count;
      if (slots[index]!.busy < slots[best]!.busy) best = index;
    }
    next = (best + 1) % count;
    return best;
  }

  /** Runs `call` on the least busy worker; `bytes` (known before, or from the answer) count towards its recycling. */
  async function run<T>(call: (remote: Comlink.Remote<TransferApi>) => Promise<T>, bytes: number | ((result: T) => number) = 0): Promise<T> {
    const index = pick();
    const slot = slots[index]!;
    slot.busy += 1;
    try {
      const result = await call(slot.remote);
      slot.bytes += typeof bytes === 'number' ? bytes : bytes(result);
      return result;
    } finally {
      slot.busy -= 1;
      // Only an idle worker is replaced: nothing of a call in flight is lost.
      if (slot.busy === 0 && slot.bytes >= recycleAfterBytes && slots[index] === slot && !isTerminated) {
        stop(slot);
        slots[index] = start(index);
      }
    }
  }

  return {
    size: count,
    // The Blob is cloned by reference (no bytes copied); the raw key is copied, not transferred,
    // because the caller reuses it for the next chunk.
    sealChunk: (request) => run((remote) => remote.sealChunk(request), chunkBytes(request.index, request.header)),
    putChunk: (request) => run((remote) => remote.putChunk(request), request.body.size),
    putChunks: (request) => run((remote) => remote.putChunks(request), request.chunks.reduce((sum, chunk) => sum + chunk.body.size, 0)),
    // The spool is one directory of the origin's, shared by every worker: any one clears it.
    clearSpool: (scope) => run((remote) => remote.clearSpool(scope)),
    dropSpooled: (name) => run((remote) => remote.dropSpooled(name)),
    downloadChunk: (request) => run((remote) => remote.downloadChunk(request), chunkBytes(request.index, request.header)),
    cacheChunk: (request) => run((remote) => remote.cacheChunk(request), (result) => result.size),
    hashChunk: (request) => run((remote) => remote.hashChunk(request), chunkBytes(request.index, request.header)),
    terminate() {
      isTerminated = true;
      for (const slot of slots) stop(slot);
    },
  };
}
