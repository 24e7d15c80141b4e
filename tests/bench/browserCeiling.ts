/**
 * The browser's own transfer ceiling on this machine, with no app code and no crypto: a page
 * PUTs and GETs 4 MiB bodies to a bare Node HTTP server that discards or serves bytes. Cairn's
 * encrypted upload and download can be read against it. PUTs are measured as the app sends them
 * (a Blob body, one request in flight per file, so an interruption costs at most one chunk) and
 * with 4 in flight; and with ArrayBuffer bodies, which Chromium sends from the renderer far
 * slower than a Blob (docs/decisions.md).
 *
 * It also measures the most any encrypted transfer can do here, with no app: the page seals each
 * 8 MiB body (the app's chunk) with WebCrypto AES-256-GCM and PUTs it (4 in flight, so the cipher
 * of one body overlaps the sending of others), and GETs bodies and opens them. No hashing, no
 * signed receipts, no server checks or disk writes, no records: everything Cairn adds is left
 * out, so an app can only be slower than this.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import type { MemoryProbe } from './swDownloadCeiling';

const BODY = 4 * 1024 * 1024;
/** The encrypted phases use the app's chunk size (src/crypto/fileChunks.ts), its best case here. */
const SEALED_BODY = 8 * 1024 * 1024;
const PAGE = '<!doctype html><title>ceiling</title>';

export interface BrowserCeiling {
  /** Blob bodies, one request in flight (the app's upload of one file). */
  putBlobOneMiBs: number;
  /** Blob bodies, 4 in flight. */
  putBlobFourMiBs: number;
  /** ArrayBuffer bodies, 4 in flight. */
  putBufferFourMiBs: number;
  /** GETs into an ArrayBuffer, 4 in flight. */
  getMiBs: number;
  /** CPU milliseconds per MiB (the browser's and the bare server's) of the Blob PUTs, 4 in flight, and of the GETs. */
  putCpuMsPerMiB: number;
  getCpuMsPerMiB: number;
  /** Seal with AES-GCM and PUT as a Blob, 4 in flight: an encrypted upload with no app. */
  sealPutMiBs: number;
  /** GET and open with AES-GCM, 4 in flight: an encrypted download with no app. */
  getOpenMiBs: number;
  sealPutCpuMsPerMiB: number;
  getOpenCpuMsPerMiB: number;
  /** Memory while sealing and PUTting, when the caller probes it. */
  sealPutMemory: { grownBytes: number; describe: string } | null;
}

/**
 * The bare server's `/sealed`: a POST keeps the body the page sealed, a GET serves it back. Answers
 * whether it handled the request.
 */
export function sealedBodyRoute(): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  let sealed = Buffer.alloc(0);
  return (req, res) => {
    if (req.url !== '/sealed') return false;
    if (req.method === 'POST') {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        sealed = Buffer.concat(parts);
        res.end('ok');
      });
    } else {
      res.setHeader('content-type', 'application/octet-stream');
      res.end(sealed);
    }
    return true;
  };
}

type Phase = 'putBlobOne' | 'putBlobFour' | 'putBufferFour' | 'get' | 'sealPut' | 'getOpen';

/** Runs in the page: `n` bodies of `size` bytes one way, as `phase` says; answers MiB/s. */
const PAGE_SCRIPT = `async (size, n, phase) => {
  const timed = async (inFlight, task) => {
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: inFlight }, async () => {
      while (next < n) { next += 1; await task(); }
    }));
    return (size * n) / 1048576 / ((performance.now() - t0) / 1000);
  };
  const bytes = new Uint8Array(size);
  const blob = new Blob([bytes]);
  const put = (body) => async () => {
    await (await fetch('/put', { method: 'PUT', body: body(), headers: { 'content-type': 'application/octet-stream' } })).text();
  };
  if (phase === 'putBlobOne') return timed(1, put(() => blob));
  if (phase === 'putBlobFour') return timed(4, put(() => blob));
  if (phase === 'putBufferFour') return timed(4, put(() => bytes.slice()));
  if (phase === 'get') return timed(4, async () => { await (await fetch('/blob', { cache: 'no-store' })).arrayBuffer(); });
  // The encrypted phases: one key, a fresh nonce per body, the plaintext read from a Blob as an
  // app reads a picked file; the sealed bytes go out as a Blob (the fast body), and downloads
  // open what /sealed serves (sealed by the page under the same key before timing starts).
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const iv = () => crypto.getRandomValues(new Uint8Array(12));
  if (phase === 'sealPut') {
    return timed(4, async () => {
      const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: iv() }, key, await blob.arrayBuffer());
      await (await fetch('/put', { method: 'PUT', body: new Blob([sealed]), headers: { 'content-type': 'application/octet-stream' } })).text();
    });
  }
  const nonce = iv();
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce }, key, bytes);
  await (await fetch('/sealed', { method: 'POST', body: new Blob([sealed]) })).text();
  return timed(4, async () => {
    // Through a Blob, as the app reads a chunk: faster here than straight into an ArrayBuffer.
    await crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce }, key, await (await (await fetch('/sealed', { cache: 'no-store' })).blob()).arrayBuffer());
  });
}`;

/**
 * `browserCpuSeconds` answers the CPU seconds Chromium's processes have used so far; the bare
 * server runs in this process, whose own CPU time is added.
 */
export async function browserCeiling(
  browser: Browser,
  totalMiB: number,
  browserCpuSeconds: () => number,
  /** Probes the memory of the seal-and-PUT phase, which then sends `probedMiB` (the app's file size). */
  probe?: { memory: MemoryProbe; probedMiB: number },
): Promise<BrowserCeiling> {
  const payload = Buffer.alloc(BODY, 7);
  const sealedBody = sealedBodyRoute();
  const server = http.createServer((req, res) => {
    if (sealedBody(req, res)) return;
    if (req.method === 'PUT') {
      req.resume();
      req.on('end', () => res.end('ok'));
    } else if (req.url === '/blob') {
      res.setHeader('content-type', 'application/octet-stream');
      res.end(payload);
    } else {
      res.setHeader('content-type', 'text/html');
      res.end(PAGE);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    const cpuNow = () => browserCpuSeconds() + process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6;
    const run = async (phase: Phase, mib = totalMiB) => {
      const size = phase === 'sealPut' || phase === 'getOpen' ? SEALED_BODY : BODY;
      const count = Math.max(4, Math.round((mib * 1024 * 1024) / size));
      const before = cpuNow();
      // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
      const rate = (await page.evaluate(`(${PAGE_SCRIPT})(${size}, ${count}, '${phase}')`)) as number;
      return { rate, cpuMsPerMiB: ((cpuNow() - before) * 1000) / ((count * size) / (1024 * 1024)) };
    };
    const putBlobOne = await run('putBlobOne');
    const putBlobFour = await run('putBlobFour');
    const putBufferFour = await run('putBufferFour');
    const get = await run('get');
    const sealPutProbe = probe ? await probe.memory(page) : null;
    const sealPut = await run('sealPut', probe?.probedMiB);
    const sealPutMemory = sealPutProbe ? await sealPutProbe.stop() : null;
    const getOpen = await run('getOpen');
    return {
      putBlobOneMiBs: putBlobOne.rate,
      putBlobFourMiBs: putBlobFour.rate,
      putBufferFourMiBs: putBufferFour.rate,
      getMiBs: get.rate,
      putCpuMsPerMiB: putBlobFour.cpuMsPerMiB,
      getCpuMsPerMiB: get.cpuMsPerMiB,
      sealPutMiBs: sealPut.rate,
      getOpenMiBs: getOpen.rate,
      sealPutCpuMsPerMiB: sealPut.cpuMsPerMiB,
      getOpenCpuMsPerMiB: getOpen.cpuMsPerMiB,
      sealPutMemory,
    };
  } finally {
    await context.close();
    server.close();
  }
}
