/**
 * The app's download work with no app code: how fast, and with how much memory, this browser
 * saves a file that a service worker fetches, checks and opens itself, as Cairn's does since
 * issue 25 (workers/serviceWorker/chunkSourceStream.ts). A bare Node server serves one 8 MiB
 * sealed body (the app's chunk); a service worker answers a download by fetching it again and
 * again, 4 in flight, checking each against its SHA-256 and opening it with AES-256-GCM on its
 * own thread (WebCrypto runs on the calling thread here), and handing the plaintext to the
 * browser's download in order, one chunk queued.
 *
 * What it leaves out of the app's work: the operations and keys that name the chunks, the
 * progress messages to the page, the server's own checks and disk. So an app can only be slower
 * than this, and hold at least as much: its figures are the ceiling for the same work.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { sealedBodyRoute } from './browserCeiling';

const SEALED_BODY = 8 * 1024 * 1024;
const WINDOW = 4;

const PAGE = `<!doctype html><title>service worker download ceiling</title>
<script>navigator.serviceWorker.register('/sw.js');</script>`;

const SERVICE_WORKER = `
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
const unbase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.pathname !== '/sw-download') return;
  const n = Number(url.searchParams.get('n'));
  const iv = unbase64(url.searchParams.get('iv'));
  const sha = url.searchParams.get('sha');
  event.respondWith((async () => {
    const key = await crypto.subtle.importKey('raw', unbase64(url.searchParams.get('key')), 'AES-GCM', false, ['decrypt']);
    const open = async () => {
      // Through a Blob, as the app reads a chunk.
      const sealed = await (await (await fetch('/sealed', { cache: 'no-store' })).blob()).arrayBuffer();
      if (hex(await crypto.subtle.digest('SHA-256', sealed)) !== sha) throw new Error('tampered');
      return crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, sealed);
    };
    const ahead = [];
    let next = 0;
    const fill = () => {
      while (next < n && ahead.length < ${WINDOW}) {
        const opening = open();
        opening.catch(() => undefined);
        ahead.push(opening);
        next += 1;
      }
    };
    fill();
    const body = new ReadableStream({
      async pull(controller) {
        const opening = ahead.shift();
        if (!opening) return controller.close();
        controller.enqueue(new Uint8Array(await opening));
        fill();
        if (ahead.length === 0) controller.close();
      },
    }, new CountQueuingStrategy({ highWaterMark: 1 }));
    return new Response(body, { headers: { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="ceiling.bin"' } });
  })());
});
`;

/** Seals one body in the page, hands it to the server, and answers the download's query. */
const PREPARE = `async (size) => {
  const raw = crypto.getRandomValues(new Uint8Array(32));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt']);
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new Uint8Array(size));
  const sha = [...new Uint8Array(await crypto.subtle.digest('SHA-256', sealed))].map((b) => b.toString(16).padStart(2, '0')).join('');
  await (await fetch('/sealed', { method: 'POST', body: new Blob([sealed]) })).text();
  const base64 = (bytes) => btoa(String.fromCharCode(...bytes));
  return new URLSearchParams({ key: base64(raw), iv: base64(iv), sha }).toString();
}`;

export interface SwDownloadCeiling {
  miBs: number;
  cpuMsPerMiB: number;
  /** What the caller's memory sampler said about the download. */
  memory: string;
  /** Growth of the browser's RSS peak over its start, in bytes. */
  grownBytes: number;
}

/** Measures memory while a download runs; `stop` answers its growth and a line describing it. */
export type MemoryProbe = (page: Page) => Promise<{ stop(): Promise<{ grownBytes: number; describe: string }> }>;

/**
 * Downloads `totalMiB` through the no-app service worker in a fresh context of `browser`.
 * `browserCpuSeconds` answers the CPU seconds Chromium's processes have used so far; the bare
 * server runs in this process, whose own CPU time is added.
 */
export async function swDownloadCeiling(browser: Browser, totalMiB: number, browserCpuSeconds: () => number, probeMemory: MemoryProbe): Promise<SwDownloadCeiling> {
  const sealedBody = sealedBodyRoute();
  const server = http.createServer((req, res) => {
    if (sealedBody(req, res)) return;
    if (req.url === '/sw.js') {
      res.setHeader('content-type', 'text/javascript');
      res.end(SERVICE_WORKER);
    } else {
      res.setHeader('content-type', 'text/html');
      res.end(PAGE);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const context = await browser.newContext({ acceptDownloads: true });
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.evaluate(async () => void (await navigator.serviceWorker.ready));
    await page.reload();
    if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) throw new Error('the ceiling service worker does not control its page');
    const query = (await page.evaluate(`(${PREPARE})(${SEALED_BODY})`)) as string;
    const count = Math.max(WINDOW, Math.round((totalMiB * 1024 * 1024) / SEALED_BODY));
    const cpuNow = () => browserCpuSeconds() + process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6;
    const memory = await probeMemory(page);
    const before = cpuNow();
    const started = performance.now();
    const downloading = page.waitForEvent('download', { timeout: 600_000 });
    // A hidden frame, as the app starts its download.
    await page.evaluate(`(() => { const frame = document.createElement('iframe'); frame.hidden = true; frame.src = '/sw-download?n=${count}&${query}'; document.body.append(frame); })()`);
    const download = await downloading;
    await download.path();
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuNow() - before;
    const { grownBytes, describe } = await memory.stop();
    if ((await download.failure()) !== null) throw new Error(`the ceiling's download failed: ${await download.failure()}`);
    const mib = (count * SEALED_BODY) / (1024 * 1024);
    return { miBs: mib / seconds, cpuMsPerMiB: (cpu * 1000) / mib, memory: describe, grownBytes };
  } finally {
    await context.close();
    server.close();
  }
}
