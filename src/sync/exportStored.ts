/**
 * What the encrypted export (docs/SYNC_SPEC.md R87) is made of, read on this device: the vault's
 * signed operations exactly as pulled (the `opPages` cache of src/sync/pull.ts, refused ones too,
 * so a reader judges the same log), and each kept version's stored bytes, fetched from the chunk
 * route and checked against the chunk hashes its uploader signed, never decrypted.
 */
import Dexie from 'dexie';
import { sha256Hex } from '../crypto/fileChunks';
import type { HistoryEntry } from '../protocol/vaultHistory';
import type { CairnDb } from '../storage/db';
import type { VersionRecord } from '../storage/vaultRecords';
import { DOWNLOAD_WINDOW } from './downloadFile';
import { pumpInOrder } from './pumpInOrder';
import { chunkPath } from './SyncContext';
import { API_BASE } from './uploadQueue';

/** Why an export stopped; the message names the file and is what the user reads. */
export class ExportError extends Error {
  constructor(
    readonly code: 'CHUNK_TAMPERED' | 'CHUNK_FAILED' | 'HISTORY_INCOMPLETE' | 'NOTHING_TO_EXPORT',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ExportError';
  }
}

export function tamperedExportMessage(fileName: string): string {
  return `The export stopped: the content of "${fileName}" does not match what its uploader signed (it may have been tampered with).`;
}

export function failedExportMessage(fileName: string): string {
  return `The export stopped: "${fileName}" could not be downloaded. Check your connection and export again.`;
}

/** Every operation this device pulled for the vault, in seq order. */
export async function readVaultHistory(db: CairnDb, accountId: string, vaultId: string): Promise<HistoryEntry[]> {
  const pages = await db.opPages.where('[accountId+vaultId+firstSeq]').between([accountId, vaultId, Dexie.minKey], [accountId, vaultId, Dexie.maxKey]).toArray();
  const ops: HistoryEntry[] = [];
  for (const page of pages) for (const cached of page.ops) ops.push({ seq: cached.seq, receivedAt: cached.receivedAt, op: cached.op });
  return ops.sort((a, b) => a.seq - b.seq);
}

/**
 * Every version the server still keeps (of files not deleted: a deleted file's chunks are gone,
 * the blob routes answer 404), with its file's name for messages, oldest file first.
 */
export async function readExportVersions(db: CairnDb, accountId: string, vaultId: string): Promise<{ version: VersionRecord; fileName: string }[]> {
  const [versions, nodes] = await Promise.all([
    db.versions.where('[accountId+vaultId]').equals([accountId, vaultId]).toArray(),
    db.nodes.where('[accountId+vaultId]').equals([accountId, vaultId]).toArray(),
  ]);
  const nodeOf = new Map(nodes.map((n) => [n.id, n]));
  return versions
    .filter((v) => {
      const node = nodeOf.get(v.fileId);
      return node !== undefined && node.status !== 'DELETED';
    })
    .sort((a, b) => a.createdAt - b.createdAt || a.number - b.number)
    .map((version) => ({ version, fileName: nodeOf.get(version.fileId)!.name }));
}

/** GETs one stored chunk; a port so a test serves its own bytes. */
export type FetchStoredChunk = (url: string, signal: AbortSignal) => Promise<Uint8Array<ArrayBuffer>>;

export const fetchStoredChunk: FetchStoredChunk = async (url, signal) => {
  const response = await fetch(url, { credentials: 'same-origin', signal });
  if (!response.ok) throw new Error(`DOWNLOAD_FAILED: ${response.status}`);
  // Through a Blob, as the transfer workers read chunks: Chromium then holds less while it reads.
  return new Uint8Array(await (await response.blob()).arrayBuffer());
};

/**
 * The version's stored bytes, chunk after chunk (R85), as a stream: every chunk checked against
 * its signed SHA-256 and its length summed to `storedSize` before it is handed on; the first bad
 * or missing chunk errors the stream with an ExportError naming the file, and nothing after it
 * is written. At most DOWNLOAD_WINDOW chunks are held at once, as in a download.
 */
export function storedBlobStream(
  vaultId: string,
  version: VersionRecord,
  fileName: string,
  options: { signal: AbortSignal; onProgress: (received: number) => void; onDone: () => void; fetchChunk?: FetchStoredChunk },
): ReadableStream<Uint8Array> {
  const fetchChunk = options.fetchChunk ?? fetchStoredChunk;
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  let received = 0;
  pumpInOrder<Uint8Array<ArrayBuffer>>({
    count: version.chunkCount,
    concurrency: DOWNLOAD_WINDOW,
    window: DOWNLOAD_WINDOW,
    signal: options.signal,
    produce: async (index) => {
      let stored: Uint8Array<ArrayBuffer>;
      try {
        stored = await fetchChunk(API_BASE + chunkPath(vaultId, version.blobId, index), options.signal);
      } catch (error) {
        if (options.signal.aborted) throw error;
        throw new ExportError('CHUNK_FAILED', failedExportMessage(fileName), { cause: error });
      }
      if ((await sha256Hex(stored)) !== version.chunkHashes[index]?.toLowerCase()) throw new ExportError('CHUNK_TAMPERED', tamperedExportMessage(fileName));
      return stored;
    },
    consume: async (chunk) => {
      received += chunk.byteLength;
      // More bytes than signed: the zip's entry size would be wrong, and the server lied.
      if (received > version.storedSize) throw new ExportError('CHUNK_TAMPERED', tamperedExportMessage(fileName));
      await writer.write(chunk);
      options.onProgress(received);
    },
  }).then(
    async () => {
      if (received !== version.storedSize) throw new ExportError('CHUNK_TAMPERED', tamperedExportMessage(fileName));
      // Every byte is written: the entry counts as done even while the zip is still reading it.
      options.onDone();
      await writer.close();
    },
  ).catch((error: unknown) => writer.abort(error).catch(() => undefined));
  return readable;
}
