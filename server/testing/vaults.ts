/**
 * Vault flows for server tests: operations signed by the user's real key, uploads through the
 * public API, and memberships written straight into the database for role tests.
 */
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { chunkHeaderFor, plainChunkSize, storedFileSize } from '../../src/crypto/fileChunks';
import {
  CHUNK_BATCH_CONTENT_TYPE,
  CHUNK_SIZE,
  CHUNK_TAG_BYTES,
  type ChunkSize,
  type Field,
  type FileVersion,
  type Operation,
  type OperationBody,
  operationSigningPayload,
  PushResponse,
  type PushResult,
  type Role,
  type SealedField,
} from '../../src/protocol/vaults';
import type { Database } from '../db/Database';
import { randomId } from '../services/tokens';
import { type ApiClient, type ApiResponse } from './ApiClient';
import type { TestEnv } from './databases';
import { expectStatus, newSession } from './flows';
import { TestUser } from './TestUser';

export function newId(): string {
  return randomId();
}

/** A sealed field as a client would send it: random bytes the server cannot open. */
export function sealed(bytes = 48): SealedField {
  return { key: 0, c: crypto.randomBytes(bytes).toString('base64url') };
}

export function clear(text: string): Field {
  return { clear: text };
}

export function sha256Hex(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

/** A signed-in user who signs and pushes operations. */
export class VaultActor {
  constructor(
    readonly api: ApiClient,
    readonly user: TestUser,
    readonly token: string,
    readonly userId: string,
  ) {}

  static async create(env: TestEnv, api: ApiClient): Promise<VaultActor> {
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    return new VaultActor(api, user, session.token, session.user.id);
  }

  async sign(vaultId: string, objectId: string, body: OperationBody, id: string = newId()): Promise<Operation> {
    const unsigned = { id, vaultId, objectId, author: this.user.publicSigningKey, createdAt: Date.now(), body };
    return { ...unsigned, signature: await this.user.sign(operationSigningPayload(unsigned)) };
  }

  pushRaw(ops: Operation[]): Promise<ApiResponse> {
    return this.api.post('/api/vaults/ops', { ops }, { token: this.token });
  }

  async push(...ops: Operation[]): Promise<PushResult[]> {
    const response = await this.pushRaw(ops);
    expectStatus(response, 200);
    return PushResponse.parse(response.body).results;
  }

  /** Signs and pushes one operation; returns its result. */
  async apply(vaultId: string, objectId: string, body: OperationBody): Promise<PushResult> {
    const [result] = await this.push(await this.sign(vaultId, objectId, body));
    if (!result) throw new Error('No push result');
    return result;
  }

  async createVault(options: { isPublic?: boolean; isCloud?: boolean } = {}): Promise<string> {
    const vaultId = newId();
    const isPublic = options.isPublic ?? false;
    const body: OperationBody = isPublic
      ? { type: 'vault.create', isPublic: true, isCloud: options.isCloud ?? true, name: clear('Public vault') }
      : { type: 'vault.create', isPublic: false, isCloud: options.isCloud ?? true, name: sealed(), ownerKeys: sealed(80).c };
    expectAccepted(await this.apply(vaultId, vaultId, body));
    return vaultId;
  }

  announce(vaultId: string, blobId: string, storedSize: number, chunkCount: number): Promise<ApiResponse> {
    return this.api.post(`/api/vaults/${vaultId}/blobs`, { blobId, storedSize, chunkCount }, { token: this.token });
  }

  async putChunk(vaultId: string, blobId: string, index: number, bytes: Buffer, sha256 = sha256Hex(bytes)): Promise<ApiResponse> {
    return this.injectBytes('PUT', `/api/vaults/${vaultId}/blobs/${blobId}/chunks/${index}`, { 'content-type': 'application/octet-stream', 'x-chunk-sha256': sha256 }, bytes);
  }

  /**
   * POST /vaults/{id}/blobs/chunks: each chunk (index 0 unless given) in one body, the manifest
   * line first. `manifest` replaces the one made from the chunks; `extra` bytes follow them.
   */
  putChunkBatch(
    vaultId: string,
    chunks: { blobId: string; index?: number; bytes: Buffer; sha256?: string }[],
    options: { manifest?: unknown; extra?: Buffer } = {},
  ): Promise<ApiResponse> {
    const manifest = options.manifest ?? { chunks: chunks.map(({ blobId, index = 0, bytes, sha256 }) => ({ blobId, index, size: bytes.length, sha256: sha256 ?? sha256Hex(bytes) })) };
    const payload = Buffer.concat([Buffer.from(`${JSON.stringify(manifest)}\n`), ...chunks.map((c) => c.bytes), options.extra ?? Buffer.alloc(0)]);
    return this.injectBytes('POST', `/api/vaults/${vaultId}/blobs/chunks`, { 'content-type': CHUNK_BATCH_CONTENT_TYPE }, payload);
  }

  private async injectBytes(method: 'PUT' | 'POST', url: string, headers: Record<string, string>, payload: Buffer): Promise<ApiResponse> {
    const response = await this.api.app.inject({ method, url, headers: { authorization: `Bearer ${this.token}`, ...headers }, payload });
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      body = undefined;
    }
    return { status: response.statusCode, body, headers: response.headers, cookies: {}, raw: response.body };
  }

  async getChunk(vaultId: string, blobId: string, index: number) {
    return this.api.app.inject({
      method: 'GET',
      url: `/api/vaults/${vaultId}/blobs/${blobId}/chunks/${index}`,
      headers: { authorization: `Bearer ${this.token}` },
    });
  }

  /** Announces and uploads `chunks`, and returns the version describing them. */
  async upload(vaultId: string, file: StoredFile, options: { isPublic?: boolean } = {}): Promise<FileVersion> {
    const blobId = newId();
    expectStatus(await this.announce(vaultId, blobId, file.storedSize, file.chunks.length), 200);
    for (const [index, chunk] of file.chunks.entries()) expectStatus(await this.putChunk(vaultId, blobId, index, chunk), 200);
    return versionOf(blobId, file, options.isPublic ?? false);
  }
}

/** A file as stored: its chunks (ciphertext for private vaults) and sizes. */
export interface StoredFile {
  size: number;
  storedSize: number;
  chunkSize: ChunkSize;
  chunks: Buffer[];
}

/**
 * Stored chunks for a file of `size` bytes: private files get one 16-byte tag per chunk, like
 * AES-GCM output (random bytes stand in for ciphertext: the server cannot tell).
 */
export function makeFile(size: number, options: { isPublic?: boolean; fill?: (plain: Buffer) => Buffer; chunkSize?: ChunkSize } = {}): StoredFile {
  const chunkSize = options.chunkSize ?? CHUNK_SIZE;
  const header = chunkHeaderFor(size, chunkSize);
  const tag = options.isPublic ? 0 : CHUNK_TAG_BYTES;
  const chunks: Buffer[] = [];
  for (let i = 0; i < header.chunkCount; i += 1) {
    const plain = crypto.randomBytes(plainChunkSize(i, header));
    chunks.push(options.fill ? options.fill(plain) : Buffer.concat([plain, crypto.randomBytes(tag)]));
  }
  return { size, storedSize: storedFileSize(header, !options.isPublic), chunkSize, chunks };
}

export function versionOf(blobId: string, file: StoredFile, isPublic: boolean): FileVersion {
  return {
    versionId: newId(),
    blobId,
    size: file.size,
    storedSize: file.storedSize,
    chunkSize: file.chunkSize,
    chunkCount: file.chunks.length,
    chunkHashes: file.chunks.map(sha256Hex),
    ...(isPublic ? {} : { fileKey: sealed() }),
    mimeType: isPublic ? clear('text/plain') : sealed(),
    lastModified: 1_700_000_000_000,
  };
}

export function expectAccepted(result: PushResult | undefined): number {
  if (result?.status !== 'accepted') throw new Error(`Expected accepted, got ${JSON.stringify(result)}`);
  return result.seq;
}

export function expectRejected(result: PushResult | undefined, code: string): void {
  if (result?.status !== 'rejected' || result.error.code !== code) {
    throw new Error(`Expected rejected ${code}, got ${JSON.stringify(result)}`);
  }
}

/**
 * A membership written directly, for tests of what a role may do (the member.* operations have
 * their own tests). Ended and unconfirmed memberships hold no ring, like ones the operations made.
 */
export async function insertMembership(
  db: Kysely<Database>,
  vaultId: string,
  userId: string,
  role: Role,
  status: 'ACCEPTED' | 'PENDING' | 'INVITED' | 'REJECTED' | 'REVOKED' = 'ACCEPTED',
  options: { invitedByUserId?: string } = {},
): Promise<string> {
  const now = Date.now();
  const id = newId();
  const holdsKeys = status === 'ACCEPTED' || status === 'PENDING';
  await db
    .insertInto('memberships')
    .values({
      id,
      vault_id: vaultId,
      user_id: userId,
      role,
      status,
      keys: holdsKeys ? sealed(80).c : null,
      invited_by_user_id: options.invitedByUserId ?? null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** The membership id of `userId` in `vaultId`. */
export async function membershipIdOf(db: Kysely<Database>, vaultId: string, userId: string): Promise<string> {
  const row = await db.selectFrom('memberships').select('id').where('vault_id', '=', vaultId).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Everything stored about one vault (its row with head_seq, key count and pending rotation, its
 * memberships, nodes, blobs, chunks, operations and notifications), to show a refused request
 * changed nothing, not even a timestamp.
 */
export async function vaultState(db: Kysely<Database>, vaultId: string): Promise<Record<string, unknown>> {
  const blobs = await db.selectFrom('blobs').selectAll().where('vault_id', '=', vaultId).orderBy('id').execute();
  const blobIds = blobs.map((b) => b.id);
  return {
    vault: await db.selectFrom('vaults').selectAll().where('id', '=', vaultId).executeTakeFirst(),
    memberships: await db.selectFrom('memberships').selectAll().where('vault_id', '=', vaultId).orderBy('id').execute(),
    nodes: await db.selectFrom('nodes').selectAll().where('vault_id', '=', vaultId).orderBy('id').execute(),
    blobs,
    chunks: blobIds.length === 0 ? [] : await db.selectFrom('blob_chunks').selectAll().where('blob_id', 'in', blobIds).orderBy('blob_id').orderBy('idx').execute(),
    ops: await db.selectFrom('ops').select(['seq', 'op_id']).where('vault_id', '=', vaultId).orderBy('seq').execute(),
    notifications: await db.selectFrom('notifications').selectAll().where('vault_id', '=', vaultId).orderBy('id').execute(),
  };
}

/** Rows of the vault tables, to show a refused request changed nothing. */
export async function countVaultRows(db: Kysely<Database>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['vaults', 'memberships', 'nodes', 'ops', 'blobs', 'blob_chunks', 'notifications', 'storage_transactions', 'note_drafts'] as const) {
    const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

/**
 * Bytes of the operation logs of every vault `userId` owns: charged to their cloud storage beside
 * their uploads (docs/decisions.md, "Operation bytes"). Counted from the stored bodies themselves,
 * not from the running totals the server keeps, so a test of those totals can fail.
 */
export async function operationBytesOf(db: Kysely<Database>, userId: string): Promise<number> {
  const rows = await db.selectFrom('ops').innerJoin('vaults', 'vaults.id', 'ops.vault_id').select('ops.body').where('vaults.owner_user_id', '=', userId).execute();
  return rows.reduce((sum, row) => sum + Buffer.byteLength(row.body), 0);
}
