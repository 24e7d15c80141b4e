import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { makeZip } from '../../tests/fixtures/zipArchive';
import { createUnzipApi } from '../../workers/zip/createUnzipApi';
import type { UnzipApi } from '../../workers/zip/UnzipApi';
import { unpackZip, type UnzipWorker } from './unzipClient';

/** Workers over a MessageChannel serving `api`, recording which were ended. */
function fakeWorkers(api: UnzipApi) {
  const log = { started: 0, terminated: 0 };
  const createWorker = (): UnzipWorker => {
    log.started += 1;
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(api, port2 as unknown as Comlink.Endpoint);
    return Object.assign(port1 as unknown as Comlink.Endpoint, {
      terminate() {
        log.terminated += 1;
        port1.close();
        port2.close();
      },
    });
  };
  return { createWorker, log };
}

const zipFile = () => new File([new Uint8Array(makeZip([{ name: 'Survey/a.txt', data: Buffer.from('a') }, { name: 'b.txt', data: Buffer.from('b') }]))], 'survey.zip');

describe('unzip client (upload zip & unpack)', () => {
  it('unpacks in a worker of its own, reports progress and ends the worker after', async () => {
    const workers = fakeWorkers(createUnzipApi());
    const progress: Array<[number, number]> = [];
    const result = await unpackZip(zipFile(), { onProgress: (done, total) => progress.push([done, total]), createWorker: workers.createWorker });
    // Node's MessageChannel clones a File as a plain Blob (browsers keep its name): the bytes tell.
    expect(await Promise.all(result.files.map(async (f) => [f.path.join('/'), await f.file.text()]))).toEqual([
      ['Survey', 'a'],
      ['', 'b'],
    ]);
    // Progress is fire-and-forget across the channel: the last call may land after the answer.
    expect(progress[0]).toEqual([1, 2]);
    expect(workers.log).toEqual({ started: 1, terminated: 1 });
  });

  it('Cancel: an abort mid-archive rejects with an AbortError and ends the worker, which never answers', async () => {
    let reportedFirst!: () => void;
    const started = new Promise<void>((resolve) => (reportedFirst = resolve));
    // An archive that never finishes: one entry handled, then the worker works on forever.
    const workers = fakeWorkers({
      async unpack(_zip, onProgress) {
        await onProgress?.(1, 1000);
        reportedFirst();
        return new Promise(() => undefined);
      },
    });
    const abort = new AbortController();
    const progress: number[] = [];
    const unpacking = unpackZip(zipFile(), { onProgress: (done) => progress.push(done), signal: abort.signal, createWorker: workers.createWorker });
    await started;
    abort.abort();
    await expect(unpacking).rejects.toMatchObject({ name: 'AbortError' });
    expect(progress).toEqual([1]);
    expect(workers.log).toEqual({ started: 1, terminated: 1 });
  });

  it('an abort before it starts starts no worker', async () => {
    const workers = fakeWorkers(createUnzipApi());
    await expect(unpackZip(zipFile(), { signal: AbortSignal.abort(), createWorker: workers.createWorker })).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers.log.started).toBe(0);
  });
});
