/**
 * Seeds a private vault with many tiny files straight through the HTTP API, with the client's own
 * crypto (src/crypto): the user's keys are derived from the 12 words the sign-up downloaded, the
 * vault's key ring is opened from GET /api/vaults, names / MIME types / file keys are sealed under
 * it and every operation is signed by the user's key, exactly as the crypto worker would.
 * Uploading 10,000 files through the UI would take far too long for a benchmark.
 */
import { randomBytes, createHash } from 'node:crypto';
import { bytesToBase64Url, bytesToHex } from '../../src/crypto/encoding';
import { sealField } from '../../src/crypto/fieldEnvelope';
import { openKeyRing } from '../../src/crypto/keyRing';
import { deriveWalletKeys, type WalletKeys } from '../../src/crypto/keys';
import { signOperation } from '../../src/crypto/operations';
import { phraseToSeed } from '../../src/crypto/phrase';
import { loadSodium } from '../../src/crypto/sodium';
import { BLOB_BATCH_LIMITS, CHUNK_BATCH_CONTENT_TYPE, CHUNK_SIZE, CHUNK_TAG_BYTES, type FileVersion, type Operation, type OperationBody } from '../../src/protocol/vaults';

export function newId(): string {
  return randomBytes(16).toString('base64url');
}

async function api(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Runs `task` over `items` with at most `limit` in flight. */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

export interface SeedResult {
  folderId: string;
  fileCount: number;
  blobSeconds: number;
  opsSeconds: number;
}

/** Files whose blobs are sent before their operations are pushed. */
const ROUND_FILES = 5_000;

export async function seedFolder(options: {
  baseUrl: string;
  token: string;
  words: string[];
  vaultId: string;
  folderName: string;
  fileCount: number;
  log: (text: string) => void;
}): Promise<SeedResult> {
  const { baseUrl, token, vaultId, fileCount, log } = options;
  const sodium = await loadSodium();
  const keys: WalletKeys = await deriveWalletKeys(await phraseToSeed(options.words));
  const author = bytesToHex(keys.signingPublicKey);

  const list = (await api(baseUrl, token, 'GET', '/api/vaults')) as { vaults: Array<{ vaultId: string; membership: { keys: string | null } }> };
  const sealedRing = list.vaults.find((v) => v.vaultId === vaultId)?.membership.keys;
  if (!sealedRing) throw new Error(`No key ring for vault ${vaultId}`);
  const ring = openKeyRing(sodium, sealedRing, keys.encryptionPublicKey, keys.encryptionPrivateKey);
  const keyIndex = ring.length - 1;
  const key = ring[keyIndex]!;
  const seal = (objectId: string, field: 'name' | 'mimeType' | 'fileKey', text: string) =>
    sealField(sodium, key, keyIndex, { vaultId, objectId, field }, text);

  const sign = (objectId: string, body: OperationBody): Promise<Operation> =>
    signOperation(keys.signingPrivateKey, { id: newId(), vaultId, objectId, author, createdAt: Date.now(), body });

  const push = async (ops: Operation[]) => {
    const { results } = (await api(baseUrl, token, 'POST', '/api/vaults/ops', { ops })) as {
      results: Array<{ status: string; error?: { code: string; message: string } }>;
    };
    const rejected = results.find((r) => r.status !== 'accepted');
    if (rejected) throw new Error(`Operation rejected: ${JSON.stringify(rejected.error)}`);
  };

  const folderId = newId();
  await push([await sign(folderId, { type: 'folder.create', parentId: null, name: seal(folderId, 'name', options.folderName) })]);

  // Blobs: one announced, one-chunk blob per file (random bytes stand in for the AES-GCM output:
  // nobody downloads these files; the list only needs the signed metadata).
  const files = Array.from({ length: fileCount }, (_, i) => {
    const size = 20 + (i % 200);
    const stored = randomBytes(size + CHUNK_TAG_BYTES);
    return {
      index: i,
      fileId: newId(),
      versionId: newId(),
      blobId: newId(),
      size,
      stored,
      sha256: createHash('sha256').update(stored).digest('hex'),
    };
  });
  // In rounds of ROUND_FILES, blobs then their operations, as uploads go: the server sums the
  // account's live reservations for each operation, and 100,000 of them waiting at once (a seed
  // of every blob first) would make that sum, not the operations, the seed's time.
  let blobSeconds = 0;
  let opsSeconds = 0;
  for (let round = 0; round < files.length; round += ROUND_FILES) {
    const roundFiles = files.slice(round, round + ROUND_FILES);
    let started = performance.now();
    // A group of files at a time, through the batch routes the app's small files take.
    const groups: (typeof files)[] = [];
    for (let from = 0; from < roundFiles.length; from += BLOB_BATCH_LIMITS.ITEMS_MAX) groups.push(roundFiles.slice(from, from + BLOB_BATCH_LIMITS.ITEMS_MAX));
    await pool(groups, 4, async (group) => {
      await api(baseUrl, token, 'POST', `/api/vaults/${vaultId}/blobs/batch`, { blobs: group.map((file) => ({ blobId: file.blobId, storedSize: file.stored.length, chunkCount: 1 })) });
      const manifest = { chunks: group.map((file) => ({ blobId: file.blobId, index: 0, size: file.stored.length, sha256: file.sha256 })) };
      const response = await fetch(`${baseUrl}/api/vaults/${vaultId}/blobs/chunks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': CHUNK_BATCH_CONTENT_TYPE },
        body: Buffer.concat([Buffer.from(`${JSON.stringify(manifest)}\n`), ...group.map((file) => file.stored)]),
      });
      if (!response.ok) throw new Error(`chunk batch: ${response.status} ${await response.text()}`);
    });
    blobSeconds += (performance.now() - started) / 1000;

    started = performance.now();
    let pushing: Promise<void> = Promise.resolve();
    for (let from = 0; from < roundFiles.length; from += 200) {
      const ops: Operation[] = [];
      for (const file of roundFiles.slice(from, from + 200)) {
        const name = `bench-${String(file.index + 1).padStart(5, '0')}.txt`;
        const version: FileVersion = {
          versionId: file.versionId,
          blobId: file.blobId,
          size: file.size,
          storedSize: file.stored.length,
          chunkSize: CHUNK_SIZE,
          chunkCount: 1,
          chunkHashes: [file.sha256],
          fileKey: seal(file.versionId, 'fileKey', bytesToBase64Url(randomBytes(32))),
          mimeType: seal(file.versionId, 'mimeType', 'text/plain'),
          lastModified: 1_700_000_000_000 + file.index * 1000,
        };
        ops.push(await sign(file.fileId, { type: 'file.create', parentId: folderId, name: seal(file.fileId, 'name', name), version }));
      }
      // The next batch is signed while this one is pushed (in order: one push at a time).
      await pushing;
      pushing = push(ops);
      pushing.catch(() => undefined);
    }
    await pushing;
    opsSeconds += (performance.now() - started) / 1000;
    log(`  seeded ${round + roundFiles.length}/${fileCount} files`);
  }
  return { folderId, fileCount, blobSeconds, opsSeconds };
}

/**
 * The server's own ceiling, no browser and no crypto: `sizeMiB` of random bytes PUT as 4 MiB
 * chunks (4 in flight) to one announced blob, then read back. Tells a slow client from a slow server.
 */
/**
 * The server alone, from a Node client with no crypto: MiB/s of 4 MiB chunk PUTs and GETs, 4 in
 * flight, and the server's CPU milliseconds per MiB for each (`serverCpuSeconds` reads its total).
 */
export async function serverCeiling(
  baseUrl: string,
  token: string,
  vaultId: string,
  sizeMiB: number,
  serverCpuSeconds: () => number,
): Promise<{ put: number; get: number; putCpuMsPerMiB: number; getCpuMsPerMiB: number }> {
  const count = Math.ceil((sizeMiB * 1024 * 1024) / CHUNK_SIZE);
  const blobId = newId();
  const chunk = randomBytes(CHUNK_SIZE + CHUNK_TAG_BYTES);
  const sha256 = createHash('sha256').update(chunk).digest('hex');
  await api(baseUrl, token, 'POST', `/api/vaults/${vaultId}/blobs`, { blobId, storedSize: chunk.length * count, chunkCount: count });
  const indexes = [...Array(count).keys()];
  const storedMiB = (chunk.length * count) / (1024 * 1024);
  let cpuBefore = serverCpuSeconds();
  let started = performance.now();
  await pool(indexes, 4, async (index) => {
    const response = await fetch(`${baseUrl}/api/vaults/${vaultId}/blobs/${blobId}/chunks/${index}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', 'x-chunk-sha256': sha256 },
      body: chunk,
    });
    if (!response.ok) throw new Error(`chunk PUT: ${response.status} ${await response.text()}`);
  });
  const put = sizeMiB / ((performance.now() - started) / 1000);
  const putCpuMsPerMiB = ((serverCpuSeconds() - cpuBefore) * 1000) / storedMiB;
  cpuBefore = serverCpuSeconds();
  started = performance.now();
  await pool(indexes, 4, async (index) => {
    const response = await fetch(`${baseUrl}/api/vaults/${vaultId}/blobs/${blobId}/chunks/${index}`, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`chunk GET: ${response.status}`);
    await response.arrayBuffer();
  });
  const get = sizeMiB / ((performance.now() - started) / 1000);
  const getCpuMsPerMiB = ((serverCpuSeconds() - cpuBefore) * 1000) / storedMiB;
  return { put, get, putCpuMsPerMiB, getCpuMsPerMiB };
}
