/**
 * What IndexedDB alone allows here, with no app: a bare page in a browser profile on disk writes
 * what a first sync of `items` files writes (a node record and a version record per file, of the
 * sizes the app's records have, and one cached page of operations per 1,000), in transactions of
 * 1,000 files, as the pull does. No network, no signatures, no decryption, no views. A first sync
 * can only be slower than this on the same machine.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { launchProfileOnDisk } from './appSession';

/** Bytes of each record as JSON in the app after a first sync of 10,000 files (bench, 2026-11-29). */
const NODE_BYTES = 460;
const VERSION_BYTES = 730;
const OP_BYTES = 1_070;
const PAGE_ITEMS = 1_000;

/** A page that writes; answers the seconds from the first transaction to the last one's commit. */
const PAGE_SCRIPT = `async ({ items, pageItems, nodeBytes, versionBytes, opBytes }) => {
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open('ceiling', 1);
    open.onupgradeneeded = () => {
      const nodes = open.result.createObjectStore('nodes', { keyPath: ['accountId', 'id'] });
      nodes.createIndex('list', ['accountId', 'vaultId', 'parentId']);
      const versions = open.result.createObjectStore('versions', { keyPath: ['accountId', 'versionId'] });
      versions.createIndex('file', ['accountId', 'fileId']);
      open.result.createObjectStore('opPages', { keyPath: ['accountId', 'vaultId', 'firstSeq'] });
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const text = (length) => {
    const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil((length * 3) / 4)));
    let out = '';
    for (const b of bytes) out += String.fromCharCode(b);
    return btoa(out).slice(0, length);
  };
  const id = () => text(22);
  const t0 = performance.now();
  for (let first = 0; first < items; first += pageItems) {
    const tx = db.transaction(['nodes', 'versions', 'opPages'], 'readwrite');
    const ops = [];
    for (let i = first; i < Math.min(items, first + pageItems); i++) {
      const fileId = id();
      tx.objectStore('nodes').put({ accountId: 'a', vaultId: 'v', id: fileId, parentId: 'folder', rest: text(nodeBytes - 100) });
      tx.objectStore('versions').put({ accountId: 'a', vaultId: 'v', versionId: id(), fileId, rest: text(versionBytes - 100) });
      ops.push({ seq: i + 1, op: text(opBytes - 20) });
    }
    tx.objectStore('opPages').put({ accountId: 'a', vaultId: 'v', firstSeq: first + 1, ops });
    await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
  }
  return (performance.now() - t0) / 1000;
}`;

/** Seconds for a bare page to write what a first sync of `items` files writes (profile in `dir`). */
export async function indexedDbCeiling(dir: string, items: number): Promise<number> {
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>ceiling</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const context = await launchProfileOnDisk(join(dir, 'idb-ceiling-profile'));
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const args = { items, pageItems: PAGE_ITEMS, nodeBytes: NODE_BYTES, versionBytes: VERSION_BYTES, opBytes: OP_BYTES };
    // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
    return (await page.evaluate(`(${PAGE_SCRIPT})(${JSON.stringify(args)})`)) as number;
  } finally {
    await context.close();
    server.close();
  }
}
