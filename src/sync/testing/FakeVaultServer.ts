/**
 * An in-memory implementation of the vault routes of src/protocol/vaults.ts behind the ApiClient
 * port, for sync tests: requests are validated with the protocol schemas and answers parsed
 * with the response schemas exactly as the real client does, errors are ApiError/NetworkError.
 * One session user (the owner of every vault). Rules kept: idempotent op ids, signature check,
 * author = session key, vault/node existence, storage reservation, chunk hash receipts.
 */
import type { z } from 'zod';
import { type ApiClient, NetworkError } from '../../platform/apiClient';
import { ApiError } from '../../protocol/errors';
import {
  BlobAnnounceRequest,
  BlobBatchAnnounceRequest,
  CHUNK_MAX_BYTES,
  type Operation,
  PushRequest,
  type PushResult,
  type SequencedOperation,
  type VaultSummary,
} from '../../protocol/vaults';
import type { TransferPort } from '../SyncContext';
import { verifyFake } from './FakeVaultCrypto';

interface FakeVault {
  summary: VaultSummary;
  ops: SequencedOperation[];
  nodes: Map<string, { kind: 'folder' | 'file'; status: string }>;
}

interface FakeBlob {
  vaultId: string;
  storedSize: number;
  chunkCount: number;
  chunks: Map<number, { bytes: Uint8Array; sha256: string }>;
  committed: boolean;
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export class FakeVaultServer {
  readonly vaults = new Map<string, FakeVault>();
  readonly blobs = new Map<string, FakeBlob>();
  private readonly accepted = new Map<string, { vaultId: string; seq: number }>();
  /** Batch announcements answered (a group of small files). */
  batchAnnouncements = 0;
  /** Blob ids released by cancelled uploads, in order. */
  readonly released: string[] = [];
  /** Every pushed op id in arrival order, repeats included (to check idempotent retries). */
  readonly pushedIds: string[] = [];
  isOffline = false;
  /** The next push is applied but its answer is lost (a timeout), as on a flaky network. */
  loseNextPushResponse = false;
  /** Rejects the next pushed op matching the predicate with this error (then clears). */
  rejectNext: { match: (op: Operation) => boolean; code: 'INVALID_OPERATION' | 'FORBIDDEN' | 'VAULT_ARCHIVED'; message: string } | null = null;
  cloudTotal = 1_000_000_000;
  /** The most operations one pull page answers, whatever the client asks (a server may serve fewer). */
  pullPageMax = Number.POSITIVE_INFINITY;
  /** Runs before each pull page is answered: a test may pause there (await) or fail it (throw). */
  beforePull: ((vaultId: string, after: number) => void | Promise<void>) | null = null;
  private time = 1_700_000_000_000;

  constructor(
    readonly user: { publicSigningKey: string; address: string },
  ) {}

  /** The ApiClient port the sync code is given. */
  readonly api: ApiClient = {
    get: (path, schema) => this.handle('GET', path, undefined, schema),
    post: (path, body, schema) => this.handle('POST', path, body, schema),
    put: (path, body, schema) => this.handle('PUT', path, body, schema),
    patch: (path, body, schema) => this.handle('PATCH', path, body, schema),
    delete: (path, body, schema) => this.handle('DELETE', path, body, schema),
  };

  private now(): number {
    return (this.time += 1_000);
  }

  private async handle<S extends z.ZodType>(method: string, path: string, body: unknown, schema: S): Promise<z.infer<S>> {
    if (this.isOffline) throw new NetworkError('offline');
    // Round-trip the body through JSON as the wire does.
    const json = body === undefined ? undefined : JSON.parse(JSON.stringify(body));
    const answer = await this.route(method, path, json);
    if (this.loseNextPushResponse && path === '/vaults/ops') {
      this.loseNextPushResponse = false;
      throw new NetworkError('timeout');
    }
    return schema.parse(JSON.parse(JSON.stringify(answer)));
  }

  private async route(method: string, path: string, body: unknown): Promise<unknown> {
    const url = new URL(path, 'http://fake');
    const parts = url.pathname.split('/').filter(Boolean);
    if (method === 'GET' && path === '/vaults') return { vaults: [...this.vaults.values()].map((v) => v.summary) };
    if (method === 'GET' && parts[0] === 'vaults' && parts[2] === 'storage' && parts.length === 3) {
      if (!this.vaults.has(parts[1]!)) throw new ApiError('NOT_FOUND');
      return { available: Math.max(0, this.cloudTotal - this.cloudUsed()) };
    }
    if (method === 'POST' && path === '/vaults/ops') return this.push(body);
    if (method === 'GET' && parts[0] === 'vaults' && parts[2] === 'ops') {
      const vault = this.vaults.get(parts[1]!);
      if (!vault) throw new ApiError('NOT_FOUND');
      const after = Number(url.searchParams.get('after') ?? 0);
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 1000), this.pullPageMax);
      await this.beforePull?.(vault.summary.vaultId, after);
      const rest = vault.ops.filter((o) => o.seq > after);
      return { ops: rest.slice(0, limit), headSeq: vault.summary.headSeq, hasMore: rest.length > limit };
    }
    if (method === 'POST' && parts[0] === 'vaults' && parts[2] === 'blobs' && parts.length === 3) {
      return this.announce(parts[1]!, body);
    }
    if (method === 'POST' && parts[0] === 'vaults' && parts[2] === 'blobs' && parts[3] === 'batch' && parts.length === 4) {
      return this.announceMany(parts[1]!, body);
    }
    if (method === 'DELETE' && parts[0] === 'vaults' && parts[2] === 'blobs' && parts.length === 4) {
      return this.release(parts[1]!, parts[3]!);
    }
    throw new ApiError('NOT_FOUND', `No fake route for ${method} ${path}`);
  }

  private cloudUsed(): number {
    return [...this.blobs.values()].reduce((n, b) => n + b.storedSize, 0);
  }

  private announce(vaultId: string, body: unknown) {
    if (!this.vaults.has(vaultId)) throw new ApiError('NOT_FOUND');
    const parsed = BlobAnnounceRequest.safeParse(body);
    if (!parsed.success) throw new ApiError('VALIDATION_FAILED');
    const { blobId, storedSize, chunkCount } = parsed.data;
    let blob = this.blobs.get(blobId);
    if (!blob) {
      if (this.cloudUsed() + storedSize > this.cloudTotal) throw new ApiError('NOT_ENOUGH_STORAGE', 'Not enough storage');
      blob = { vaultId, storedSize, chunkCount, chunks: new Map(), committed: false };
      this.blobs.set(blobId, blob);
    }
    return { blobId, storedChunks: [...blob.chunks.keys()].sort((a, b) => a - b), committed: blob.committed };
  }

  /** Several announcements: all fit together, or none is reserved (as the server's one transaction). */
  private announceMany(vaultId: string, body: unknown) {
    this.batchAnnouncements += 1;
    if (!this.vaults.has(vaultId)) throw new ApiError('NOT_FOUND');
    const parsed = BlobBatchAnnounceRequest.safeParse(body);
    if (!parsed.success) throw new ApiError('VALIDATION_FAILED');
    const fresh = parsed.data.blobs.filter((b) => !this.blobs.has(b.blobId));
    if (this.cloudUsed() + fresh.reduce((n, b) => n + b.storedSize, 0) > this.cloudTotal) throw new ApiError('NOT_ENOUGH_STORAGE', 'Not enough storage');
    return { blobs: parsed.data.blobs.map((b) => this.announce(vaultId, b)) };
  }

  /** A cancelled upload's reservation and chunks go (idempotent; a committed blob is a CONFLICT). */
  private release(vaultId: string, blobId: string) {
    const blob = this.blobs.get(blobId);
    if (blob && blob.vaultId !== vaultId) throw new ApiError('NOT_FOUND');
    if (blob?.committed) throw new ApiError('CONFLICT', 'The upload is already complete');
    this.blobs.delete(blobId);
    this.released.push(blobId);
    return { ok: true };
  }

  /** PUT of one chunk, as the transfer worker does it. */
  async putChunk(url: string, bytes: Uint8Array, sha256: string): Promise<void> {
    if (this.isOffline) throw new TypeError('Failed to fetch');
    const [, , , vaultId, , blobId, , index] = url.split('/');
    const blob = this.blobs.get(blobId!);
    if (!blob || blob.vaultId !== vaultId) throw new Error('UPLOAD_FAILED: 404');
    if (bytes.byteLength > CHUNK_MAX_BYTES || (await sha256Hex(bytes)) !== sha256) throw new Error('UPLOAD_FAILED: 400');
    const i = Number(index);
    const existing = blob.chunks.get(i);
    if (existing && existing.sha256 !== sha256) throw new Error('UPLOAD_FAILED: 409');
    blob.chunks.set(i, { bytes: bytes.slice(), sha256 });
  }

  async getChunk(url: string): Promise<Uint8Array> {
    // As the transfer worker reports a fetch that got no answer.
    if (this.isOffline) throw new Error('UNREACHABLE: Failed to fetch');
    const [, , , , , blobId, , index] = url.split('/');
    const chunk = this.blobs.get(blobId!)?.chunks.get(Number(index));
    if (!chunk) throw new Error('DOWNLOAD_FAILED: 404');
    return chunk.bytes.slice();
  }

  private push(body: unknown): { results: PushResult[] } {
    const parsed = PushRequest.safeParse(body);
    if (!parsed.success) throw new ApiError('VALIDATION_FAILED', parsed.error.message);
    return { results: parsed.data.ops.map((op) => this.accept(op)) };
  }

  private accept(op: Operation): PushResult {
    this.pushedIds.push(op.id);
    const done = this.accepted.get(op.id);
    if (done) return { id: op.id, status: 'accepted', vaultId: done.vaultId, seq: done.seq };
    const reject = (code: string, message: string): PushResult => ({ id: op.id, status: 'rejected', error: { code, message } });
    if (this.rejectNext?.match(op)) {
      const { code, message } = this.rejectNext;
      this.rejectNext = null;
      return reject(code, message);
    }
    if (!verifyFake(op)) return reject('INVALID_SIGNATURE', 'The signature does not verify');
    if (op.author !== this.user.publicSigningKey) return reject('FORBIDDEN', 'Not your key');
    const body = op.body;
    let vault = this.vaults.get(op.vaultId);
    const now = this.now();
    if (body.type === 'vault.create') {
      if (vault) return reject('CONFLICT', 'The vault exists');
      vault = {
        summary: {
          vaultId: op.vaultId,
          isPublic: body.isPublic,
          isCloud: body.isCloud,
          status: 'ACTIVE',
          ownerAddress: this.user.address,
          membership: { id: `m-${op.vaultId}`, role: 'OWNER', status: 'ACCEPTED', keys: body.ownerKeys ?? null, expiresAt: null, storageAllowance: null, organisationAirdrop: false },
          keyCount: body.isPublic ? 0 : 1,
          needsKeyRotation: false,
          headSeq: 0,
          size: 0,
          createdAt: now,
          updatedAt: now,
        },
        ops: [],
        nodes: new Map(),
      };
      this.vaults.set(op.vaultId, vault);
    } else if (!vault) {
      return reject('NOT_FOUND', 'No such vault');
    } else {
      const node = vault.nodes.get(op.objectId);
      switch (body.type) {
        case 'vault.rename':
        case 'vault.updateMetadata':
          break;
        case 'vault.archive':
          vault.summary.status = 'ARCHIVED';
          break;
        case 'vault.restore':
          vault.summary.status = 'ACTIVE';
          break;
        case 'vault.delete':
          if (vault.summary.status !== 'ARCHIVED') return reject('INVALID_OPERATION', 'Only archived vaults can be removed');
          vault.summary.status = 'DELETED';
          break;
        case 'folder.create':
        case 'file.create': {
          if (node) return reject('CONFLICT', 'The node exists');
          if (body.parentId && vault.nodes.get(body.parentId)?.kind !== 'folder') return reject('INVALID_OPERATION', 'No such folder');
          if (vault.summary.status === 'ARCHIVED') return reject('VAULT_ARCHIVED', 'The vault is archived');
          if (body.type === 'file.create') {
            const error = this.commitBlob(op.vaultId, body.version);
            if (error) return reject('INVALID_OPERATION', error);
            vault.summary.size += body.version.storedSize;
          }
          vault.nodes.set(op.objectId, { kind: body.type === 'folder.create' ? 'folder' : 'file', status: 'ACTIVE' });
          break;
        }
        case 'file.addVersion': {
          if (node?.kind !== 'file') return reject('NOT_FOUND', 'No such file');
          const error = this.commitBlob(op.vaultId, body.version);
          if (error) return reject('INVALID_OPERATION', error);
          vault.summary.size += body.version.storedSize;
          break;
        }
        default:
          if (!node || node.status === 'DELETED') return reject('NOT_FOUND', 'No such node');
          if (body.type === 'node.move' && body.parentId && vault.nodes.get(body.parentId)?.kind !== 'folder') {
            return reject('INVALID_OPERATION', 'No such folder');
          }
          if (body.type === 'node.hide') node.status = 'REVOKED';
          if (body.type === 'node.restore') node.status = 'ACTIVE';
          if (body.type === 'node.delete') {
            if (node.status !== 'REVOKED') return reject('INVALID_OPERATION', 'Only hidden items can be deleted');
            node.status = 'DELETED';
          }
      }
    }
    const seq = vault.summary.headSeq + 1;
    vault.summary.headSeq = seq;
    vault.summary.updatedAt = now;
    vault.ops.push({ seq, receivedAt: now, op });
    this.accepted.set(op.id, { vaultId: op.vaultId, seq });
    return { id: op.id, status: 'accepted', vaultId: op.vaultId, seq };
  }

  private commitBlob(vaultId: string, version: { blobId: string; chunkCount: number; chunkHashes: string[] }): string | null {
    const blob = this.blobs.get(version.blobId);
    if (!blob || blob.vaultId !== vaultId) return 'The blob was not announced';
    for (let i = 0; i < version.chunkCount; i++) {
      if (blob.chunks.get(i)?.sha256 !== version.chunkHashes[i]) return `Chunk ${i} is missing or differs`;
    }
    blob.committed = true;
    return null;
  }

  /** Stores an operation directly (e.g. a forged one), bypassing every check. */
  inject(op: Operation): void {
    const vault = this.vaults.get(op.vaultId)!;
    const seq = ++vault.summary.headSeq;
    vault.ops.push({ seq, receivedAt: this.now(), op });
  }
}

/**
 * The transfer pool's calls over the fake server. "Encryption" XORs with the key and adds a
 * zero tag so stored sizes match the real format; the hash check on download is real.
 */
export class FakeTransfer implements TransferPort {
  /** Chunk indexes the server accepted, in order (to check a resume sends only missing chunks). */
  readonly sent: number[] = [];
  /** Bytes of every PUT attempt, failed ones included in full: what went on the wire at worst. */
  putBytes = 0;
  /** Most PUTs in flight at once. */
  maxInFlight = 0;
  private inFlight = 0;
  /** The PUT of this chunk index fails once with a network error (its bytes counted as sent). */
  failIndexOnce: number | null = null;
  /** The server goes down during the PUT of this chunk index (as a SIGKILL would): it and every request after fail until `server.isOffline` is cleared. */
  crashDuring: number | null = null;
  /** Awaited as each PUT starts, before its bytes count (tests use it to interrupt at a chosen point). */
  onPut: ((index: number) => void | Promise<void>) | null = null;
  /**
   * Set (by a test) to spool sealed chunks as the worker does on disk: each sealed chunk is a
   * named entry here until its PUT ends or it is dropped, so a test sees what a run leaves behind.
   * Null: sealed chunks are in-memory Blobs, as without OPFS.
   */
  spool: Set<string> | null = null;
  private spooledCount = 0;

  constructor(private readonly server: FakeVaultServer) {}

  private static xor(bytes: Uint8Array, key: ArrayBuffer | null): Uint8Array {
    if (!key) return bytes;
    const k = new Uint8Array(key);
    const out = new Uint8Array(bytes.length);
    for (let i = 0; i < bytes.length; i++) out[i] = bytes[i]! ^ k[i % k.length]!;
    return out;
  }

  /** Reads one chunk; a file the browser cannot read any more rejects FILE_UNREADABLE, as in the worker. */
  private static async plainOf(file: Blob, index: number, chunkSize: number): Promise<Uint8Array> {
    try {
      return new Uint8Array(await file.slice(index * chunkSize, (index + 1) * chunkSize).arrayBuffer());
    } catch (error) {
      throw new Error('FILE_UNREADABLE', { cause: error });
    }
  }

  private static async storedOf({ file, index, header, rawKey }: Parameters<TransferPort['hashChunk']>[0]) {
    if (file.size !== header.size) throw new Error('FILE_CHANGED');
    const plain = await FakeTransfer.plainOf(file, index, header.chunkSize);
    const sealed = FakeTransfer.xor(plain, rawKey);
    const stored = rawKey ? new Uint8Array(sealed.length + 16) : sealed;
    if (rawKey) stored.set(sealed);
    return stored;
  }

  async sealChunk(request: Parameters<TransferPort['sealChunk']>[0]) {
    const stored = await FakeTransfer.storedOf(request);
    const sha256 = await sha256Hex(stored);
    if (request.expectedSha256 && request.expectedSha256 !== sha256) throw new Error('FILE_CHANGED');
    const spooled = this.spool ? `${request.spoolScope}/${++this.spooledCount}.chunk` : null;
    if (spooled) this.spool?.add(spooled);
    return { body: new Blob([stored as Uint8Array<ArrayBuffer>]), spooled, sha256, storedSize: stored.byteLength };
  }

  async dropSpooled(name: string) {
    this.spool?.delete(name);
  }

  async putChunk(request: Parameters<TransferPort['putChunk']>[0]) {
    const index = Number(request.url.split('/').at(-1));
    await this.onWire(index, [request], async () => {
      await this.server.putChunk(request.url, new Uint8Array(await request.body.arrayBuffer()), request.sha256);
      this.sent.push(index);
    });
  }

  /** Chunks of the batch PUTs the server accepted, each request's count (a group of small files). */
  readonly batches: number[] = [];

  /** A batch PUT (its hooks as for chunk 0): each chunk stored as its own PUT would be, in order; the first refused one refuses the rest. */
  async putChunks(request: Parameters<NonNullable<TransferPort['putChunks']>>[0]) {
    const url = request.url.replace(/\/chunks$/, '');
    await this.onWire(0, request.chunks, async () => {
      for (const chunk of request.chunks) {
        await this.server.putChunk(`${url}/${chunk.blobId}/chunks/${chunk.index}`, new Uint8Array(await chunk.body.arrayBuffer()), chunk.sha256);
        this.sent.push(chunk.index);
      }
      this.batches.push(request.chunks.length);
    });
  }

  /**
   * One request on the wire carrying `bodies`, as the tests' hooks see it (`onPut`, `crashDuring`
   * and `failIndexOnce` by `index`); `store` hands it to the server. Sent or not, the worker
   * removes the sealed copies once the request ends.
   */
  private async onWire(index: number, bodies: readonly { body: Blob; spooled?: string | null }[], store: () => Promise<void>) {
    await this.onPut?.(index);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.server.isOffline) throw new TypeError('Failed to fetch');
      for (const { body } of bodies) this.putBytes += body.size;
      if (this.crashDuring === index) {
        this.crashDuring = null;
        this.server.isOffline = true;
      }
      if (this.failIndexOnce === index) {
        this.failIndexOnce = null;
        throw new TypeError('Failed to fetch');
      }
      await store();
    } finally {
      this.inFlight -= 1;
      for (const { spooled } of bodies) if (spooled) this.spool?.delete(spooled);
    }
  }

  async hashChunk(request: Parameters<TransferPort['hashChunk']>[0]) {
    return sha256Hex(await FakeTransfer.storedOf(request));
  }

  async downloadChunk(request: Parameters<TransferPort['downloadChunk']>[0]) {
    const stored = await this.server.getChunk(request.url);
    if ((await sha256Hex(stored)) !== request.expectedSha256) throw new Error('CHUNK_TAMPERED');
    const sealed = request.rawKey ? stored.slice(0, stored.length - 16) : stored;
    const plain = FakeTransfer.xor(sealed, request.rawKey);
    return plain.buffer.slice(plain.byteOffset, plain.byteOffset + plain.byteLength) as ArrayBuffer;
  }
}
