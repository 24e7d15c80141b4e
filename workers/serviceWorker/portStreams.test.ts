import { afterEach, describe, expect, it } from 'vitest';
import { STREAM_CANCELLED } from './downloadStreamProtocol';
import { READABLE_HIGH_WATER_MARK, readableFromPort, writableToPort } from './portStreams';

// Both ends over a real MessageChannel (Node's), as the page and the service worker use them.
const channels: MessageChannel[] = [];
function pair(size: number, startTimeoutMs?: number) {
  const channel = new MessageChannel();
  channels.push(channel);
  let settled = 0;
  const writable = writableToPort(channel.port1, { size, ...(startTimeoutMs ? { startTimeoutMs } : {}), onSettled: () => (settled += 1) });
  return { channel, writable, settledCount: () => settled, openReadable: () => readableFromPort(channel.port2) };
}
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

const wait = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

function bytes(length: number, seed: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}

async function readAll(readable: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of readable) parts.push(part);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

describe('download stream over a MessagePort', () => {
  it('delivers every byte in order and transfers the buffers instead of copying them', async () => {
    const chunks = [bytes(1000, 1), bytes(1, 2), bytes(4096, 3), bytes(0, 4), bytes(777, 5)];
    const expected = new Uint8Array(chunks.flatMap((c) => [...c]));
    const { writable, openReadable, settledCount } = pair(expected.length);
    const reading = readAll(openReadable());
    const writer = writable.getWriter();
    for (const chunk of chunks) await writer.write(chunk);
    await writer.close();
    expect(await reading).toEqual(expected);
    // A chunk that filled its buffer was moved to the service worker, not copied.
    expect(chunks[0]!.byteLength).toBe(0);
    expect(chunks[2]!.byteLength).toBe(0);
    expect(settledCount()).toBe(1);
  });

  it('copies a chunk that is a view into a larger buffer, leaving the buffer usable', async () => {
    const backing = bytes(100, 9);
    const view = backing.subarray(10, 20);
    const { writable, openReadable } = pair(10);
    const reading = readAll(openReadable());
    const writer = writable.getWriter();
    await writer.write(view);
    await writer.close();
    expect(await reading).toEqual(bytes(100, 9).subarray(10, 20));
    expect(backing.byteLength).toBe(100);
  });

  it('holds the page back while the browser does not read (backpressure)', async () => {
    const { writable, openReadable } = pair(10 * 64);
    const readable = openReadable();
    const writer = writable.getWriter();
    let done = 0;
    for (let i = 0; i < 10; i++) void writer.write(bytes(64, i)).then(() => (done += 1), () => undefined);
    await wait(50);
    // The service worker asked for as many chunks as its queue holds, and no more.
    expect(done).toBe(READABLE_HIGH_WATER_MARK);
    const reader = readable.getReader();
    await reader.read();
    await wait(50);
    expect(done).toBe(READABLE_HIGH_WATER_MARK + 1);
    await reader.cancel();
  });

  it('fails the download when the page aborts (a tampered chunk): the reader errors', async () => {
    const { writable, openReadable, settledCount } = pair(1000);
    const reader = openReadable().getReader();
    const writer = writable.getWriter();
    await writer.write(bytes(100, 1));
    expect((await reader.read()).value).toHaveLength(100);
    await writer.abort(new Error('CHUNK_TAMPERED'));
    await expect(reader.read()).rejects.toThrow('CHUNK_TAMPERED');
    expect(settledCount()).toBe(1);
  });

  it('tells the page when the browser cancels, and the next write fails with STREAM_CANCELLED', async () => {
    const { writable, openReadable, settledCount } = pair(1000);
    const reader = openReadable().getReader();
    const writer = writable.getWriter();
    await writer.write(bytes(100, 1));
    await reader.cancel('user cancelled');
    await wait();
    await expect(writer.write(bytes(100, 2))).rejects.toThrow(STREAM_CANCELLED);
    expect(settledCount()).toBe(1);
  });

  it('never ends a download short of or past its announced size', async () => {
    const short = pair(100);
    const shortReader = short.openReadable().getReader();
    const shortWriter = short.writable.getWriter();
    await shortWriter.write(bytes(60, 1));
    await expect(shortWriter.close()).rejects.toThrow('after 60 of its 100 bytes');
    await shortReader.read();
    await expect(shortReader.read()).rejects.toThrow('after 60 of its 100 bytes');

    const long = pair(100);
    const longReader = long.openReadable().getReader();
    const longWriter = long.writable.getWriter();
    await expect(longWriter.write(bytes(101, 1))).rejects.toThrow('more bytes than its announced 100');
    await expect(longReader.read()).rejects.toThrow('more bytes than its announced 100');
  });

  it('fails when the service worker never takes the download', async () => {
    const { writable, settledCount } = pair(10, 50);
    await expect(writable.getWriter().write(bytes(10, 1))).rejects.toThrow('did not start');
    expect(settledCount()).toBe(1);
  });

  it('errors the download on a message that is not the protocol', async () => {
    const channel = new MessageChannel();
    channels.push(channel);
    const reader = readableFromPort(channel.port2).getReader();
    channel.port1.postMessage({ type: 'chunk', bytes: 'not a buffer' });
    await expect(reader.read()).rejects.toThrow('malformed');
  });
  it('hands the browser a buffer the service worker allocated itself, not the one that crossed the port (issue 19)', async () => {
    // A fake port: the test posts the page's message itself and keeps the buffer it sent.
    const port = { onmessage: null as ((event: MessageEvent) => void) | null, postMessage: () => undefined, close: () => undefined };
    const reader = readableFromPort(port as unknown as MessagePort).getReader();
    const sent = bytes(4096, 7);
    const expected = sent.slice();
    port.onmessage!({ data: { type: 'chunk', bytes: sent.buffer } } as MessageEvent);
    const { value } = await reader.read();
    expect(value).toEqual(expected);
    // Chromium collected the transferred buffers late in a service worker with a 2 MiB heap (the
    // export bench saw them pile up, 72 to 176 MiB over four exports); its own copies are
    // collected as they go, and it holds about 100 MiB whatever the download's size.
    expect(value!.buffer).not.toBe(sent.buffer);
    await reader.cancel();
  });
});
