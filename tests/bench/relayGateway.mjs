// A checking stand-in for an Arweave node's upload endpoints, for the large run of
// tests/bench/relay.ts: `node relayGateway.mjs <port> <dataFile>`. arlocal's /chunk route scans
// every stored chunk on each post (16 MiB take over a minute), so a 1 GiB bundle cannot go through
// it. This one does what a node checks and keeps nothing in memory but the header:
// - POST /tx: the transaction's signature and id (arweave-js verify); data inline or none;
// - POST /chunk: data_size and data_root are the transaction's, the proof (data_path) leads from
//   data_root to this offset (arweave-js validatePath), the chunk's SHA-256 is the proof's leaf,
//   and chunks arrive in order without gaps; the chunk is appended to <dataFile>;
// - GET /tx/{id}/status: 404, then 202 while data is missing or no block was mined, then 200
//   with one confirmation after GET /mine; GET /price/{bytes} and GET /tx_anchor as a node answers.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ArweaveModule = require('arweave');
const Arweave = ArweaveModule.default ?? ArweaveModule;
const { validatePath } = require('arweave/node/lib/merkle');

const [port, dataFile] = process.argv.slice(2);
const arweave = Arweave.init({ host: '127.0.0.1', port: Number(port), protocol: 'http' });
const anchor = crypto.randomBytes(32).toString('base64url');
/** id -> { tx, received, mined } */
const transactions = new Map();

async function readJson(request) {
  const parts = [];
  for await (const part of request) parts.push(part);
  return JSON.parse(Buffer.concat(parts).toString('utf8'));
}

function answer(response, status, body) {
  response.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

async function postTx(request, response) {
  const json = await readJson(request);
  const tx = arweave.transactions.fromRaw(json);
  if (!(await arweave.transactions.verify(tx))) return answer(response, 400, { error: 'invalid_signature' });
  let received = 0;
  if (tx.data.byteLength > 0) {
    fs.writeFileSync(dataFile, tx.data);
    received = tx.data.byteLength;
  } else fs.writeFileSync(dataFile, '');
  transactions.set(tx.id, { dataRoot: tx.data_root, dataSize: Number(tx.data_size), received, mined: false });
  return answer(response, 200, 'OK');
}

async function postChunk(request, response) {
  const chunk = await readJson(request);
  const entry = [...transactions.values()].find((t) => t.dataRoot === chunk.data_root && String(t.dataSize) === chunk.data_size);
  if (!entry) return answer(response, 400, { error: 'data_root_not_found' });
  const bytes = Buffer.from(chunk.chunk, 'base64url');
  const path = Buffer.from(chunk.data_path, 'base64url');
  const offset = Number(chunk.offset);
  const proven = await validatePath(Buffer.from(entry.dataRoot, 'base64url'), offset, 0, entry.dataSize, path);
  const leafHash = path.subarray(path.length - 64, path.length - 32);
  if (!proven || !crypto.createHash('sha256').update(bytes).digest().equals(leafHash)) return answer(response, 400, { error: 'invalid_proof' });
  if (proven.leftBound !== entry.received || proven.chunkSize !== bytes.length) return answer(response, 400, { error: 'out_of_order' });
  fs.appendFileSync(dataFile, bytes);
  entry.received += bytes.length;
  return answer(response, 200, {});
}

const server = http.createServer((request, response) => {
  const url = new URL(request.url, 'http://gateway');
  const route = `${request.method} ${url.pathname}`;
  const handle = async () => {
    if (route === 'GET /tx_anchor') return answer(response, 200, anchor);
    if (route === 'GET /mine') {
      for (const entry of transactions.values()) entry.mined ||= entry.received === entry.dataSize;
      return answer(response, 200, {});
    }
    let match = /^GET \/price\/(\d+)$/.exec(route);
    if (match) return answer(response, 200, String(1_000 + Number(match[1]) * 10));
    match = /^GET \/tx\/([\w-]{43})\/status$/.exec(route);
    if (match) {
      const entry = transactions.get(match[1]);
      if (!entry) return answer(response, 404, 'Not Found');
      if (!entry.mined) return answer(response, 202, 'Pending');
      return answer(response, 200, { block_height: 1, block_indep_hash: anchor, number_of_confirmations: 1 });
    }
    if (route === 'POST /tx') return postTx(request, response);
    if (route === 'POST /chunk') return postChunk(request, response);
    return answer(response, 404, 'Not Found');
  };
  handle().catch((error) => answer(response, 500, { error: String(error) }));
});
// Longer than a bundling pass: a kept-alive socket the server closes as the client reuses it fails the request.
server.keepAliveTimeout = 120_000;
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
