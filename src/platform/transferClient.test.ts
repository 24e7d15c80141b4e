import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import type { TransferApi } from '../../workers/transfer/TransferApi';
import { createTransferPool, type TransferWorker } from './transferClient';

const header = { size: 40, chunkSize: 16, chunkCount: 3 };

/** Workers over a MessageChannel, each answering downloads with its own number, held until released. */
function fakeWorkers() {
  const started: number[] = [];
  const stopped: number[] = [];
  const holds: (() => void)[] = [];
  let hold = false;
  const createWorker = (): TransferWorker => {
    const number = started.length;
    started.push(number);
    const { port1, port2 } = new MessageChannel();
    const api: Partial<TransferApi> = {
      async downloadChunk() {
        if (hold) await new Promise<void>((resolve) => holds.push(resolve));
        return new Uint8Array([number]).buffer;
      },
      async putChunk() {},
    };
    Comlink.expose(api, port2 as unknown as Comlink.Endpoint);
    const endpoint = port1 as unknown as Comlink.Endpoint;
    return Object.assign(endpoint, {
      terminate() {
        stopped.push(number);
        port1.close();
        port2.close();
      },
    });
  };
  return {
    createWorker,
    started,
    stopped,
    holdDownloads: (on: boolean) => (hold = on),
    release: () => holds.splice(0).forEach((resolve) => resolve()),
  };
}

const download = async (pool: ReturnType<typeof createTransferPool>, index: number) =>
  new Uint8Array(await pool.downloadChunk({ index, header, rawKey: null, url: '/c', expectedSha256: '00' }))[0];

describe('transfer pool', () => {
  it('replaces a worker with a fresh one once it has handled enough chunk bytes', async () => {
    const workers = fakeWorkers();
    const pool = createTransferPool(1, { createWorker: workers.createWorker, recycleAfterBytes: 32 });
    expect(await download(pool, 0)).toBe(0); // 16 bytes
    expect(await download(pool, 2)).toBe(0); // 8 more: 24
    expect(workers.stopped).toEqual([]);
    expect(await download(pool, 1)).toBe(0); // 16 more: 40, so the worker goes once idle
    expect(workers.stopped).toEqual([0]);
    expect(await download(pool, 0)).toBe(1);
    await pool.putChunk({ body: new Blob([new Uint8Array(40)]), sha256: '00', url: '/c' });
    expect(workers.started).toEqual([0, 1, 2]);
    pool.terminate();
    expect(workers.stopped).toEqual([0, 1, 2]);
  });

  it('never replaces a worker with a call in flight, and starts none after terminate', async () => {
    const workers = fakeWorkers();
    const pool = createTransferPool(1, { createWorker: workers.createWorker, recycleAfterBytes: 16 });
    workers.holdDownloads(true);
    const first = download(pool, 0);
    const second = download(pool, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    workers.release();
    // Both answered by the worker they were sent to, which goes only after the last of them.
    expect(await Promise.all([first, second])).toEqual([0, 0]);
    expect(workers.stopped).toEqual([0]);
    expect(workers.started).toEqual([0, 1]);

    const third = download(pool, 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    pool.terminate();
    expect(workers.stopped).toEqual([0, 1]);
    workers.release();
    await Promise.race([third, new Promise((resolve) => setTimeout(resolve, 50))]).catch(() => undefined);
    expect(workers.started).toEqual([0, 1]);
  });
});
