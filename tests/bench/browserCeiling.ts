/**
 * The browser's own transfer ceiling on this machine, with no app code and no crypto: a page
 * PUTs and GETs 4 MiB bodies (4 in flight) to a bare Node HTTP server that discards or serves
 * bytes. Cairn's encrypted upload and download can be read against it: here, Chromium's request
 * bodies leave the renderer far slower than WebCrypto encrypts them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';

const BODY = 4 * 1024 * 1024;
const PAGE = '<!doctype html><title>ceiling</title>';

/** Runs in the page: 4 transfers in flight, `n` bodies of `size` bytes each way; answers MiB/s. */
const PAGE_SCRIPT = `async (size, n) => {
  const timed = async (task) => {
    let next = 0;
    const t0 = performance.now();
    await Promise.all([0, 1, 2, 3].map(async () => {
      while (next < n) { next += 1; await task(); }
    }));
    return (size * n) / 1048576 / ((performance.now() - t0) / 1000);
  };
  const body = new Uint8Array(size);
  const putMiBs = await timed(async () => {
    await (await fetch('/put', { method: 'PUT', body: body.slice(), headers: { 'content-type': 'application/octet-stream' } })).text();
  });
  const getMiBs = await timed(async () => { await (await fetch('/blob', { cache: 'no-store' })).arrayBuffer(); });
  return { putMiBs, getMiBs };
}`;

export async function browserCeiling(browser: Browser, totalMiB: number): Promise<{ putMiBs: number; getMiBs: number }> {
  const payload = Buffer.alloc(BODY, 7);
  const server = http.createServer((req, res) => {
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
    const count = Math.max(4, Math.round((totalMiB * 1024 * 1024) / BODY));
    // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
    return (await page.evaluate(`(${PAGE_SCRIPT})(${BODY}, ${count})`)) as { putMiBs: number; getMiBs: number };
  } finally {
    await context.close();
    server.close();
  }
}
