/**
 * Minting Atomic NFTs (spec 002 sections 4, 7; docs/SYNC_SPEC.md R136, R141): every blob goes up
 * first through the upload queue (resumable chunk PUTs, counted against the permanent storage like
 * any file's) as an 'nft' upload, which queues no file operation; Cancel during this phase aborts
 * and nothing is signed. Then the signed operations are queued in order (each NFT's `nft.mint`,
 * then for a collection its `nft.collection` naming them), and the mint waits until the server
 * accepted every one of them ('Finalising NFT collection...').
 */
import { NFT_LIMITS, type NftCollectionMetadata, type NftMetadata, type Udl } from '../protocol/nfts';
import type { FileVersion } from '../protocol/vaults';
import type { UploadRecord } from '../storage/vaultRecords';
import { requireSync } from './currentSync';
import { uploadMimeType } from './enqueueUploadedFile';
import { dismissRejectedOperation, enqueueOperations, type EnqueueInput } from './outbox';
import type { SyncContext } from './SyncContext';
import { queueUploads, UPLOAD_FAILED_MESSAGE } from './uploadQueue';

/** One NFT of a mint: its asset file and metadata (in a collection, named after its file). */
export interface MintAsset {
  file: File;
  metadata: NftMetadata;
}

export interface MintInput {
  vaultId: string;
  assets: MintAsset[];
  udl: Udl | null;
  ucm: boolean;
  /** Set for a collection mint: its metadata and optional display images. */
  collection?: { metadata: NftCollectionMetadata; thumbnail: File | null; banner: File | null } | null;
}

export interface MintProgress {
  /** 0-100 over the blobs' bytes; 100 while the operations are queued and confirmed. */
  percent: number;
  phase: 'uploading' | 'finalising';
}

export interface MintOptions {
  onProgress?: (progress: MintProgress) => void;
  /** Aborting during the upload phase cancels the uploads; nothing is signed (R141). */
  signal?: AbortSignal;
  /** How often the upload records are read for progress (ms). */
  pollMs?: number;
}

export interface MintResult {
  /** The NFTs' ids (the `nft.mint` object ids), in the order given. */
  nftIds: string[];
  collectionId: string | null;
}

/** The mint was cancelled before any operation was queued. */
export class MintCancelled extends Error {
  constructor() {
    super('The mint was cancelled');
  }
}

/** A mint that failed: its message is shown in the snackbar (spec 002 section 8). */
export class MintError extends Error {}

const DONE_STATES = new Set(['done']);
const FAILED_STATES = new Set(['failed', 'cancelled']);

/** Mints with the running sync client (the app's entry point). */
export async function mintNfts(input: MintInput, options: MintOptions = {}): Promise<MintResult> {
  const { client, ctx } = requireSync();
  return mintWith(ctx, () => client.syncAndConfirm(), input, options);
}

/**
 * The mint over a sync context: `push` runs a sync cycle and answers whether it reached the
 * server. Exposed for tests that drive a real server.
 */
export async function mintWith(ctx: SyncContext, push: () => Promise<boolean>, input: MintInput, options: MintOptions = {}): Promise<MintResult> {
  if (!input.vaultId) throw new MintError('Missing vault id.');
  if (input.assets.length === 0) throw new MintError('Choose a file to mint');
  if (input.assets.length > NFT_LIMITS.COLLECTION_MAX) throw new MintError(`At most ${NFT_LIMITS.COLLECTION_MAX} NFTs in a collection`);
  const isCollection = Boolean(input.collection);
  if (!isCollection && input.assets.length !== 1) throw new MintError('A single mint takes one file');
  if (options.signal?.aborted) throw new MintCancelled();

  await forgetAbandonedUploads(ctx);

  // 1. Every blob, through the upload queue (nothing signed yet).
  const files: File[] = input.assets.map((asset) => asset.file);
  const thumbnail = input.collection?.thumbnail ?? null;
  const banner = input.collection?.banner ?? null;
  if (thumbnail) files.push(thumbnail);
  if (banner) files.push(banner);
  const batchId = ctx.newId();
  const { records } = await queueUploads(
    ctx,
    files.map((file) => ({ vaultId: input.vaultId, parentId: null, file, name: file.name, batchId, purpose: 'nft' as const })),
  );
  ctx.requestUploads();
  const versions = await waitForBlobs(ctx, records, options);

  // 2. The operations, in order: the NFTs, then the collection naming them (R136).
  options.onProgress?.({ percent: 100, phase: 'finalising' });
  const collectionId = isCollection ? ctx.newId() : null;
  const nftIds = input.assets.map(() => ctx.newId());
  const operations: EnqueueInput[] = input.assets.map((asset, i) => {
    const version = versions[i]!;
    return {
      vaultId: input.vaultId,
      objectId: nftIds[i]!,
      body: { type: 'nft.mint', collectionId, metadata: asset.metadata, udl: input.udl, ucm: input.ucm, version },
      fields: { mimeType: uploadMimeType(records[i]!) },
      groupRef: batchId,
    };
  });
  if (input.collection && collectionId) {
    let next = input.assets.length;
    operations.push({
      vaultId: input.vaultId,
      objectId: collectionId,
      body: {
        type: 'nft.collection',
        metadata: input.collection.metadata,
        udl: input.udl,
        ucm: input.ucm,
        nftIds,
        thumbnail: thumbnail ? versions[next++]! : null,
        banner: banner ? versions[next++]! : null,
      },
      fields: {},
      groupRef: batchId,
    });
  }
  const queued = await enqueueOperations(ctx, operations);
  await forgetMintUploads(ctx, records);

  // 3. Wait until the server accepted them all (or refused one: the mint failed).
  await waitForAcceptance(
    ctx,
    queued.map((record) => record.opId),
    push,
  );
  return { nftIds, collectionId };
}

/** Polls the mint's uploads until all are stored; reports progress; cancels them on abort. */
async function waitForBlobs(ctx: SyncContext, records: UploadRecord[], options: MintOptions): Promise<FileVersion[]> {
  const keys = records.map((record) => [ctx.accountId, record.uploadId] as [string, string]);
  const total = records.reduce((sum, record) => sum + record.size, 0);
  const pollMs = options.pollMs ?? 200;
  for (;;) {
    if (options.signal?.aborted) {
      await cancelMintUploads(ctx, records);
      throw new MintCancelled();
    }
    const current = await ctx.db.uploads.bulkGet(keys);
    const failed = current.find((record) => !record || FAILED_STATES.has(record.state));
    if (failed !== undefined) {
      await cancelMintUploads(ctx, records);
      throw new MintError(failed?.error || UPLOAD_FAILED_MESSAGE);
    }
    const sent = current.reduce((sum, record) => sum + (record?.state === 'done' ? record.size : Math.min(record?.sentBytes ?? 0, record?.size ?? 0)), 0);
    // 100 belongs to the finalising phase: the upload phase shows at most 99.
    options.onProgress?.({ percent: total ? Math.min(99, Math.floor((sent / total) * 100)) : 99, phase: 'uploading' });
    if (current.every((record) => record && DONE_STATES.has(record.state) && record.version)) return current.map((record) => record!.version!);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollMs);
      options.signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }
}

/** Cancels the mint's unfinished uploads (the queue releases their reservations). */
async function cancelMintUploads(ctx: SyncContext, records: UploadRecord[]): Promise<void> {
  const ids = new Set(records.map((record) => record.uploadId));
  await ctx.db.uploads
    .where('accountId')
    .equals(ctx.accountId)
    .filter((record) => ids.has(record.uploadId))
    .modify((record) => {
      if (record.state === 'done' || record.state === 'cancelled' || record.state === 'finalising') return;
      record.state = 'cancelled';
      record.isReleased = false;
    });
  ctx.requestUploads();
}

/** Once the operations hold the versions, the upload records have served. */
async function forgetMintUploads(ctx: SyncContext, records: UploadRecord[]): Promise<void> {
  await ctx.db.uploads.bulkDelete(records.map((record) => [ctx.accountId, record.uploadId] as [string, string]));
}

/** A mint's uploads older than this whose page went away before it signed anything are dropped. */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * A page closed mid-mint leaves its 'nft' uploads behind: finished ones hold a version nobody
 * will sign (their reservation stops counting on the server, BlobService), unfinished ones would go on
 * sending. A day on, no mint waits for them.
 */
async function forgetAbandonedUploads(ctx: SyncContext): Promise<void> {
  const before = ctx.now() - ABANDONED_AFTER_MS;
  const stale = await ctx.db.uploads
    .where('accountId')
    .equals(ctx.accountId)
    .filter((record) => record.purpose === 'nft' && record.createdAt < before)
    .toArray();
  if (stale.length) await cancelMintUploads(ctx, stale);
  const finished = stale.filter((record) => record.state === 'done');
  await ctx.db.uploads.bulkDelete(finished.map((record) => [ctx.accountId, record.uploadId] as [string, string]));
}

/** How many sync cycles that cannot reach the server a mint waits through before it reports the failure. */
const MAX_UNREACHED_CYCLES = 5;

/**
 * Pushes until every operation left the outbox (accepted) or one was refused. A refusal is
 * reported with the server's message and the refused records are dismissed, so a mint the server
 * refused does not stay pending in the vault.
 */
async function waitForAcceptance(ctx: SyncContext, opIds: string[], push: () => Promise<boolean>): Promise<void> {
  let unreached = 0;
  for (;;) {
    const isReached = await push();
    const left = (await ctx.db.outbox.bulkGet(opIds.map((opId) => [ctx.accountId, opId] as [string, string]))).filter((record) => record !== undefined);
    if (left.length === 0) return;
    const refused = left.find((record) => record.status === 'rejected');
    if (refused) {
      // The snackbar tells the user; a refusal left in the outbox would keep a ghost NFT pending.
      for (const record of left) if (record.status === 'rejected') await dismissRejectedOperation(ctx, record.opId);
      throw new MintError(refused.error?.message || refused.error?.code || 'The mint was refused');
    }
    unreached = isReached ? 0 : unreached + 1;
    if (unreached >= MAX_UNREACHED_CYCLES) throw new MintError('The server could not be reached; the mint is sent when it can be');
    await new Promise((resolve) => setTimeout(resolve, 250 * (unreached + 1)));
  }
}
