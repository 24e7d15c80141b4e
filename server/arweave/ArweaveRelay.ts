/**
 * The permanent relay (docs/SYNC_SPEC.md R34-R37; DESIGN.md section 5). Each pass:
 *
 * 1. bundles SCHEDULED rows: claims them (SCHEDULED -> VERIFICATION, so two processes never bundle
 *    one row), reads the stored bytes (ciphertext for private vaults) and checks them against the
 *    committed chunk hashes, wraps each version in an ANS-104 data item signed by the relay wallet,
 *    bundles up to BUNDLE_MAX_BYTES of items into one Arweave transaction and signs it. The bundle's
 *    data goes to the blob store and its signed header, tx id, data item ids and reward to the
 *    database (BUNDLED) BEFORE anything is posted. Versions, items and bundles are streamed from
 *    and to disk, never whole in memory (dataItems.ts, transactionChunks.ts; SYNC_SPEC R65);
 * 2. posts BUNDLED transactions: asks the gateway first and posts only when it does not know the
 *    id, always the same signed transaction (a restart never re-bundles into a second id); a
 *    transaction it knows whose chunks were not all acknowledged gets the rest (R66a); then
 *    PENDING. A 4xx refusal (other than 404/408/429) is REJECTED; other errors back off with jitter;
 * 3. polls PENDING transactions until confirmed (COMMITTED; an NFT's or collection's row REGISTERED,
 *    R139). One the gateway forgot is posted again.
 *
 * Atomic NFTs (R137, nftItems.ts): an 'nft' row is an item of the asset's bytes with its planned
 * tags beside the Cairn item tags; a 'collection' row is claimed only once every row it names (its
 * NFTs', thumbnail's, banner's) has a data item id, so it may travel in a later bundle than they.
 *
 * Before bundling, a pass makes the permanent vaults' history runs that are due (R84,
 * historyRuns.ts): rows of kind 'history' that then go through the same three steps, their data
 * built from the operation log instead of read from the blob store.
 *
 * Several processes on one PostgreSQL: the loop runs a pass only while this process leads
 * (RelayLeadership.ts, an advisory lock), so each bundle is posted by one process; the claims of
 * step 1 still keep two bundlers apart should a lost lock connection let two passes overlap.
 *
 * Every status change is reported through `onChange` (the WebSocket `storageTransaction` message).
 * A version reaching COMMITTED credits its uploader's U reward in the same database transaction
 * (`rewards`, the ledger: SYNC_SPEC R107).
 * Retry times use the wall clock (Date.now), record timestamps the app's Clock.
 */
import crypto from 'node:crypto';
import { ArweaveSigner } from 'arbundles';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Selectable, Updateable } from 'kysely';
import { CONFIRMED_STORAGE_TX_STATUSES, FINAL_STORAGE_TX_STATUSES, type StorageTransaction, type StorageTxStatus } from '../../src/protocol/arweave';
import { collectionItemData, collectionItemTags } from '../../src/protocol/nfts';
import { type BlobStore, chunkKey } from '../blobs/BlobStore';
import type { Database, StorageTransactionsTable } from '../db/Database';
import type { Clock } from '../services/Clock';
import type { CommittedUpload } from '../services/LedgerService';
import { listChunks } from '../services/vaultRows';
import type { ArweaveClient, JWKInterface } from './arweaveClient';
import { bundleSize, bundleStream, type SignedItem, signDataItem } from './dataItems';
import { fileItemTags, HISTORY_RUN_MAX_BYTES, HISTORY_RUN_MAX_OPS, historyItemTags, ITEM_TAGS } from '../../src/protocol/vaultHistory';
import { buildRunData, HISTORY_SETTLE_MS, makeHistoryRuns } from './historyRuns';
import { type CollectionItemPlan, namedRowIds, readItemPlan } from './nftItems';
import { type RelayLeadership, soleLeadership } from './RelayLeadership';
import { toStorageTransaction } from './storageTransactionRows';
import { ChunkTree, chunkStream, uploadChunkCount } from './transactionChunks';
import { PassLoop } from '../passLoop';

/** Item bytes per bundle; a single larger version is bundled alone (docs/decisions.md). */
export const BUNDLE_MAX_BYTES = 64 * 1024 * 1024;
/** The app tag every data item carries; a private item's other tags are ids only (R84, R85). */
export const APP_NAME = ITEM_TAGS.appName;
/** Polls in a row that must not find a posted transaction before it is posted again. */
export const FORGOTTEN_AFTER = 3;

export interface RelayOptions {
  /** Pause between passes of the loop. */
  intervalMs?: number;
  /** Confirmations that make a transaction COMMITTED. */
  confirmations?: number;
  bundleMaxBytes?: number;
  /** Backoff after a gateway error: base * 2^attempts, at most max, times a jitter in [0.5, 1). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How long a claimed (VERIFICATION) row stays another pass's before it may be taken again. */
  claimLeaseMs?: number;
  /** R84: a history run is made once its newest operation is this old (HISTORY_SETTLE_MS). */
  historySettleMs?: number;
  /** R84: most operations and data bytes in one history run. */
  historyRunMaxOps?: number;
  historyRunMaxBytes?: number;
}

export interface RelayDeps {
  db: Kysely<Database>;
  blobStore: BlobStore;
  arweave: ArweaveClient;
  wallet: JWKInterface;
  clock: Clock;
  log: FastifyBaseLogger;
  /** A file version's row changed (history runs are not anybody's uploads, R84). */
  onChange?: (transaction: StorageTransaction, uploaderUserId: string) => void;
  /** A bundle was posted to the gateway (the metrics' counter). */
  onBundlePosted?: () => void;
  /** Who relays when several processes share the database; default: this one (one process). */
  leadership?: RelayLeadership;
  /**
   * Credits the uploaders of versions that became COMMITTED (the U token, SYNC_SPEC R107), in the
   * same transaction as the status: a crash or a second process never leaves one without the other.
   * Answers what to announce once that transaction has committed.
   */
  rewards?: { creditRewards(trx: Kysely<Database>, committed: readonly CommittedUpload[]): Promise<() => void> };
  options?: RelayOptions;
}

type Row = Selectable<StorageTransactionsTable>;
export type RelayPhase = 'history' | 'bundle' | 'post' | 'poll';
const BUNDLE_KEY_PREFIX = 'arweave-bundles';

/** A gateway answer that will not change on retry. */
class GatewayRefusal extends Error {}

/** A version's stored bytes are missing or no longer match what the client committed. */
class StoredBytesError extends Error {}

/** A claimed row and its signed data item (the header; the data stays in the blob store). */
interface Candidate {
  row: Row;
  item: SignedItem;
}

/**
 * Throws unless the gateway accepted: a 4xx other than 404/408/429 is a GatewayRefusal (it will
 * answer the same again), anything else an error to retry.
 */
function expectAccepted(response: { status: number; data?: unknown }): void {
  if (response.status >= 200 && response.status < 300) return;
  const detail = typeof response.data === 'string' ? response.data : JSON.stringify(response.data ?? '');
  const message = `${response.status} ${detail.slice(0, 200)}`;
  if (response.status >= 400 && response.status < 500 && ![404, 408, 429].includes(response.status)) throw new GatewayRefusal(message);
  throw new Error(`Gateway answered ${message}`);
}

export class ArweaveRelay {
  private readonly options: Required<RelayOptions>;
  private readonly signer: ArweaveSigner;
  private readonly leadership: RelayLeadership;
  private readonly loop: PassLoop;

  constructor(private readonly deps: RelayDeps) {
    this.options = {
      intervalMs: 2_000,
      confirmations: 1,
      bundleMaxBytes: BUNDLE_MAX_BYTES,
      backoffBaseMs: 1_000,
      backoffMaxMs: 5 * 60_000,
      claimLeaseMs: 10 * 60_000,
      historySettleMs: HISTORY_SETTLE_MS,
      historyRunMaxOps: HISTORY_RUN_MAX_OPS,
      historyRunMaxBytes: HISTORY_RUN_MAX_BYTES,
      ...deps.options,
    };
    this.signer = new ArweaveSigner(deps.wallet);
    this.leadership = deps.leadership ?? soleLeadership;
    this.loop = new PassLoop(
      () => this.leadPass(),
      () => this.options.intervalMs,
      (error) => this.deps.log.error({ err: error }, 'arweave relay pass failed'),
      false,
    );
  }

  /** Starts the loop; rows left from a previous run are picked up by the first pass. */
  start(): void {
    this.loop.start();
  }

  /**
   * Runs the next pass now rather than after the interval (a vault changed: a version may have
   * been scheduled), so the uploader hears of it at once. A pass in progress is not disturbed.
   */
  wake(): void {
    this.loop.wake();
  }

  /** Stops the loop, waits for a pass in progress, then gives the lead up for another process. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await this.leadership.release();
  }

  /**
   * One pass (also for tests, which drive the relay step by step whoever leads). Passes never
   * overlap.
   */
  async runOnce(phases: readonly RelayPhase[] = ['history', 'bundle', 'post', 'poll']): Promise<void> {
    await this.runPass(phases, () => true);
  }

  private async runPass(phases: readonly RelayPhase[], stillLeading: () => boolean): Promise<void> {
    await this.loop.exclusive(() => this.pass(phases, stillLeading));
  }

  /**
   * A pass of the loop, run only while this process leads; a follower tries for the lead again
   * at every interval, so it takes over within one interval of the leader's end.
   */
  private async leadPass(): Promise<void> {
    if (this.loop.isStopped || !(await this.leadership.lead())) return;
    await this.runPass(['history', 'bundle', 'post', 'poll'], () => this.leadership.isLeading());
  }

  private async pass(phases: readonly RelayPhase[], stillLeading: () => boolean): Promise<void> {
    // A lead lost mid-pass (its connection dropped) stops the pass before the next step: another
    // process may be leading by now.
    if (phases.includes('history')) await this.makeHistoryRuns();
    if (phases.includes('bundle') && stillLeading()) await this.bundleScheduled();
    if (phases.includes('post') && stillLeading()) await this.postBundled(stillLeading);
    if (phases.includes('poll') && stillLeading()) await this.pollPending();
  }

  // --- 0. history runs ---------------------------------------------------------------------------

  private async makeHistoryRuns(): Promise<void> {
    const { historySettleMs: settleMs, historyRunMaxOps: maxOps, historyRunMaxBytes: maxBytes } = this.options;
    await makeHistoryRuns(this.deps.db, this.deps.clock, { settleMs, maxOps, maxBytes });
  }

  // --- 1. bundle -------------------------------------------------------------------------------

  private async bundleScheduled(): Promise<void> {
    const { db } = this.deps;
    const now = Date.now();
    const candidates = await db
      .selectFrom('storage_transactions')
      .selectAll()
      .where('status', 'in', ['SCHEDULED', 'VERIFICATION'])
      .where('next_attempt_at', '<=', now)
      .orderBy('created_at')
      .orderBy('id')
      .limit(200)
      .execute();
    let group: Candidate[] = [];
    let groupBytes = 0;
    for (const candidate of candidates) {
      if (candidate.kind === 'collection' && (await this.collectionItems(candidate)) === 'wait') continue;
      const row = await this.claim(candidate, now);
      if (!row) continue;
      const item = await this.signVerified(row);
      if (!item) {
        await this.setStatus([row.id], 'BLOCKED', {});
        continue;
      }
      if (group.length > 0 && groupBytes + item.dataSize > this.options.bundleMaxBytes) {
        await this.bundleOrRelease(group);
        group = [];
        groupBytes = 0;
      }
      group.push({ row, item });
      groupBytes += item.dataSize;
    }
    if (group.length > 0) await this.bundleOrRelease(group);
  }

  /** Bundles `group`; when the gateway (price, anchor) fails, gives the rows back for a later pass. */
  private async bundleOrRelease(group: Candidate[]): Promise<void> {
    try {
      await this.bundle(group);
    } catch (error) {
      const attempts = Math.max(...group.map(({ row }) => Number(row.attempts)));
      const delay = this.backoffDelay(attempts);
      this.deps.log.warn({ attempts, delayMs: delay, err: error }, 'arweave bundling failed; retrying later');
      await this.deps.db
        .updateTable('storage_transactions')
        .set({ status: 'SCHEDULED', attempts: attempts + 1, next_attempt_at: Date.now() + delay, updated_at: this.deps.clock.now() })
        .where('id', 'in', group.map(({ row }) => row.id))
        .where('status', '=', 'VERIFICATION')
        .execute();
      for (const { row } of group) await this.report(row.id);
    }
  }

  private backoffDelay(attempts: number): number {
    return Math.round(Math.min(this.options.backoffMaxMs, this.options.backoffBaseMs * 2 ** attempts) * (0.5 + Math.random() / 2));
  }

  /** SCHEDULED (or a lapsed claim) -> VERIFICATION for this process only; null if another took it. */
  private async claim(row: Row, now: number): Promise<Row | null> {
    const result = await this.deps.db
      .updateTable('storage_transactions')
      .set({ status: 'VERIFICATION', next_attempt_at: now + this.options.claimLeaseMs, updated_at: this.deps.clock.now() })
      .where('id', '=', row.id)
      .where('status', '=', row.status)
      .where('next_attempt_at', '=', row.next_attempt_at)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return null;
    if (row.status !== 'VERIFICATION') await this.report(row.id);
    return { ...row, status: 'VERIFICATION' };
  }

  /**
   * The version wrapped in a data item signed by the relay wallet, after reading its stored bytes
   * (a stream, never whole) and checking each chunk against the hash the client committed; null
   * when a chunk is missing, no longer matches its hash, or the size is not the version's.
   */
  private async signVerified(row: Row): Promise<SignedItem | null> {
    if (row.kind === 'collection') {
      const items = await this.collectionItems(row);
      if (items === 'wait' || items === null) return null;
      const data = Buffer.from(collectionItemData(items.nftItemIds));
      if (data.length !== Number(row.size)) return null;
      return signDataItem(this.signer, collectionItemTags({ ...items.plan, thumbnailItemId: items.thumbnailItemId, bannerItemId: items.bannerItemId }), oneChunk(data));
    }
    if (row.kind === 'history') {
      const data = await this.runData(row);
      if (!data || data.length !== Number(row.size)) return null;
      return signDataItem(this.signer, this.tagsFor(row), oneChunk(data));
    }
    const chunks = await listChunks(this.deps.db, row.blob_id);
    if (chunks.length === 0) return null;
    try {
      const item = await signDataItem(this.signer, this.tagsFor(row), this.versionBytes(row.blob_id, chunks));
      return item.dataSize === Number(row.size) ? item : null;
    } catch (error) {
      if (error instanceof StoredBytesError) return null;
      throw error;
    }
  }

  /**
   * The stored bytes of a version, chunk after chunk as the blob store reads them. Each chunk is
   * checked against its committed SHA-256 before its last piece is yielded (StoredBytesError).
   */
  private async *versionBytes(blobId: string, chunks: { index: number; sha256: string }[]): AsyncGenerator<Uint8Array> {
    for (const chunk of chunks) {
      const stream = await this.deps.blobStore.get(chunkKey(blobId, chunk.index, chunk.sha256));
      if (!stream) throw new StoredBytesError(`Chunk ${chunk.index} of ${blobId} is missing`);
      const hash = crypto.createHash('sha256');
      let held: Buffer | null = null;
      for await (const piece of stream) {
        if (held) yield held;
        held = piece as Buffer;
        hash.update(held);
      }
      if (hash.digest('hex') !== chunk.sha256) {
        stream.destroy();
        throw new StoredBytesError(`Chunk ${chunk.index} of ${blobId} does not match its hash`);
      }
      if (held) yield held;
    }
  }

  /** A history run's data (R84), built from the log; null if the log lacks one of its operations. */
  private async runData(row: Row): Promise<Buffer | null> {
    if (row.seq_from == null || row.seq_to == null) return null;
    return buildRunData(this.deps.db, row.vault_id, Number(row.seq_from), Number(row.seq_to));
  }

  /**
   * What a collection's item is made of (R137): its plan and the item ids of the rows it names;
   * 'wait' while one of them has none yet, null when one never will (BLOCKED, or gone) or the plan
   * is unreadable, which blocks the collection.
   */
  private async collectionItems(
    row: Row,
  ): Promise<{ plan: CollectionItemPlan; nftItemIds: string[]; thumbnailItemId: string | null; bannerItemId: string | null } | 'wait' | null> {
    const plan = readItemPlan(row.nft_plan);
    if (!plan || plan.kind !== 'collection') return null;
    const named = await this.deps.db.selectFrom('storage_transactions').select(['id', 'status', 'data_item_id']).where('id', 'in', namedRowIds(plan)).execute();
    const byId = new Map(named.map((r) => [r.id, r]));
    const itemId = (id: string): string | null | 'wait' => {
      const found = byId.get(id);
      if (!found || found.status === 'BLOCKED') return null;
      return found.data_item_id ?? 'wait';
    };
    const ids = namedRowIds(plan).map(itemId);
    if (ids.includes(null)) return null;
    if (ids.includes('wait')) return 'wait';
    return {
      plan,
      nftItemIds: plan.nftRowIds.map((id) => itemId(id) as string),
      thumbnailItemId: plan.thumbnailRowId ? (itemId(plan.thumbnailRowId) as string) : null,
      bannerItemId: plan.bannerRowId ? (itemId(plan.bannerRowId) as string) : null,
    };
  }

  /** The bytes of a row's data item, read again each time (the bundle is streamed twice). */
  private itemBytes(row: Row, chunks: { index: number; sha256: string }[]): AsyncIterable<Uint8Array> {
    if (row.kind === 'collection') {
      const items = () => this.collectionItems(row);
      return (async function* () {
        const made = await items();
        if (!made || made === 'wait') throw new StoredBytesError(`The items of collection row ${row.id} are missing`);
        yield Buffer.from(collectionItemData(made.nftItemIds));
      })();
    }
    if (row.kind !== 'history') return this.versionBytes(row.blob_id, chunks);
    const runData = () => this.runData(row);
    return (async function* () {
      const data = await runData();
      if (!data) throw new StoredBytesError(`The operations of history run ${row.id} are missing`);
      yield data;
    })();
  }

  private tagsFor(row: Row): { name: string; value: string }[] {
    if (row.kind === 'history') return historyItemTags(row.vault_id, Number(row.seq_from), Number(row.seq_to));
    if (row.kind === 'nft') {
      // R137: the atomic asset's tags (Content-Type among them) first, where marketplaces read
      // App-Name, then the Cairn item tags (R85) that find the version by its signed blob id.
      const plan = readItemPlan(row.nft_plan);
      if (!plan || plan.kind !== 'nft') throw new StoredBytesError(`The plan of NFT row ${row.id} is unreadable`);
      return [...plan.tags, ...fileItemTags(row.vault_id, row.blob_id)];
    }
    // R85: the item says which vault and blob it is, so a reader finds a version by its signed blob id.
    const tags = fileItemTags(row.vault_id, row.blob_id);
    // Only public vaults have these columns set: a private item says nothing about its content.
    if (row.content_type) tags.push({ name: 'Content-Type', value: row.content_type });
    if (row.public_name) tags.push({ name: 'File-Name', value: row.public_name });
    return tags;
  }

  /**
   * Writes the bundle of `group` to the blob store and signs its transaction, streaming: the
   * bundle is read once for its data_root (the transaction's id depends on it) and once more into
   * its file, each item's bytes checked against what was signed both times (docs/decisions.md).
   */
  private async bundle(group: Candidate[]): Promise<void> {
    const { arweave, wallet, db, blobStore } = this.deps;
    const items = group.map(({ item }) => item);
    const rows = group.map(({ row }) => row);
    const chunkLists = await Promise.all(rows.map((row) => (row.kind === 'history' || row.kind === 'collection' ? [] : listChunks(db, row.blob_id))));
    const stream = () => bundleStream(items, (index) => this.itemBytes(rows[index]!, chunkLists[index]!));
    const size = bundleSize(items);
    const tree = await ChunkTree.fromStream(stream());
    if (tree.dataSize !== size) throw new Error('The bundle is not the size its items make');
    const tx = arweave.transactions.fromRaw({
      format: 2,
      owner: wallet.n,
      target: '',
      quantity: '0',
      last_tx: await arweave.transactions.getTransactionAnchor(),
      reward: await arweave.transactions.getPrice(size),
      data: new Uint8Array(0),
      data_size: String(size),
      data_root: tree.dataRoot.toString('base64url'),
      tags: [],
    });
    tx.addTag('Bundle-Format', 'binary');
    tx.addTag('Bundle-Version', '2.0.0');
    await arweave.transactions.sign(tx, wallet);
    const dataKey = `${BUNDLE_KEY_PREFIX}/${tx.id}`;
    const staged = await blobStore.stage(dataKey, stream(), size);
    if (staged.size !== size) {
      await staged.discard();
      throw new Error('The bundle written is not the size its items make');
    }
    await staged.commit();
    const header = JSON.stringify({ ...tx.toJSON(), data: '' });
    const now = this.deps.clock.now();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('storage_bundles').values({ tx_id: tx.id, header, data_key: dataKey, created_at: now }).execute();
      for (const [index, { row }] of group.entries()) {
        await trx
          .updateTable('storage_transactions')
          .set({
            status: 'BUNDLED',
            tx_id: tx.id,
            data_item_id: items[index]!.id,
            reward: tx.reward,
            attempts: 0,
            next_attempt_at: 0,
            updated_at: now,
          })
          .where('id', '=', row.id)
          .where('status', '=', 'VERIFICATION')
          .execute();
      }
    });
    for (const { row } of group) await this.report(row.id);
  }

  // --- 2. post ---------------------------------------------------------------------------------

  private async postBundled(stillLeading: () => boolean): Promise<void> {
    for (const txId of await this.dueTxIds('BUNDLED')) {
      if (!stillLeading()) return;
      try {
        const known = await this.gatewayStatus(txId);
        if (known === 'unknown') {
          await this.post(txId, 'whole');
          this.deps.onBundlePosted?.();
        } else if (!(await this.isFullyPosted(txId))) {
          // The gateway has the header but not every chunk: a post cut partway (R66a).
          await this.post(txId, 'rest');
        } else if (known === 'confirmed') {
          await this.setTxStatus(txId, 'BUNDLED', 'COMMITTED');
          continue;
        }
        await this.setTxStatus(txId, 'BUNDLED', 'PENDING');
      } catch (error) {
        if (error instanceof GatewayRefusal) {
          this.deps.log.warn({ txId, reason: error.message }, 'the gateway refused a bundle');
          await this.setTxStatus(txId, 'BUNDLED', 'REJECTED');
        } else await this.backOff(txId, 'BUNDLED', error);
      }
    }
  }

  /**
   * Whether the gateway acknowledged every chunk of a bundle it knows (R66a). A bundle of one
   * chunk travels inside its header, so the gateway knowing it is enough.
   */
  private async isFullyPosted(txId: string): Promise<boolean> {
    const stored = await this.deps.db.selectFrom('storage_bundles').select(['header', 'chunks_accepted']).where('tx_id', '=', txId).executeTakeFirstOrThrow();
    const chunks = uploadChunkCount(Number(this.deps.arweave.transactions.fromRaw(JSON.parse(stored.header)).data_size));
    return chunks <= 1 || Number(stored.chunks_accepted) >= chunks;
  }

  /**
   * Posts the stored signed transaction, its data read from the bundle file: inline when it is one
   * chunk, as arweave-js's uploader does, otherwise the header and then each chunk with its proof
   * to /chunk. The file is read twice (the proofs need the whole tree first), never held whole.
   *
   * `whole` posts the header and every chunk (the gateway does not know the transaction, or forgot
   * it with whatever chunks it had); `rest` only the chunks after the last one acknowledged. Each
   * acknowledgement is recorded before the next chunk is sent (storage_bundles.chunks_accepted),
   * so a post cut by an outage or a restart resumes there; at worst the one chunk whose answer
   * was lost is sent twice, which a node accepts as it accepted the first (R66a).
   */
  private async post(txId: string, part: 'whole' | 'rest'): Promise<void> {
    const { db, blobStore, arweave } = this.deps;
    const stored = await db.selectFrom('storage_bundles').selectAll().where('tx_id', '=', txId).executeTakeFirstOrThrow();
    const read = async () => {
      const stream = await blobStore.get(stored.data_key);
      if (!stream) throw new GatewayRefusal('The bundle data is missing from the blob store');
      return stream as AsyncIterable<Uint8Array>;
    };
    const tx = arweave.transactions.fromRaw(JSON.parse(stored.header));
    const tree = await ChunkTree.fromStream(await read());
    if (tx.id !== txId || tree.dataRoot.toString('base64url') !== tx.data_root || String(tree.dataSize) !== tx.data_size) {
      throw new Error('The stored bundle does not match its id');
    }
    // A header posted again starts the count over: a gateway that forgot the transaction may have
    // dropped its chunks too.
    if (part === 'whole') await this.recordAcceptedChunks(txId, 0);
    if (tree.uploadCount <= 1) {
      if (part === 'rest') return;
      const pieces: Uint8Array[] = [];
      for await (const piece of await read()) pieces.push(piece);
      tx.data = new Uint8Array(Buffer.concat(pieces));
      expectAccepted(await arweave.api.post('tx', JSON.stringify(tx)));
      await this.recordAcceptedChunks(txId, tree.uploadCount);
      return;
    }
    if (part === 'whole') expectAccepted(await arweave.api.post('tx', JSON.stringify(tx)));
    const first = part === 'whole' ? 0 : Number(stored.chunks_accepted);
    let index = 0;
    for await (const chunk of chunkStream(await read())) {
      if (index >= tree.uploadCount) break;
      if (index >= first) {
        if (!crypto.createHash('sha256').update(chunk.bytes).digest().equals(tree.chunks[index]!.dataHash)) throw new Error('The bundle file changed while it was posted');
        const { offset, proof } = tree.proof(index);
        const body = { data_root: tx.data_root, data_size: tx.data_size, data_path: proof.toString('base64url'), offset: String(offset), chunk: chunk.bytes.toString('base64url') };
        expectAccepted(await arweave.api.post('chunk', JSON.stringify(body)));
        await this.recordAcceptedChunks(txId, index + 1);
      }
      index += 1;
    }
  }

  private async recordAcceptedChunks(txId: string, count: number): Promise<void> {
    await this.deps.db.updateTable('storage_bundles').set({ chunks_accepted: count }).where('tx_id', '=', txId).execute();
  }

  // --- 3. poll ---------------------------------------------------------------------------------

  private async pollPending(): Promise<void> {
    for (const txId of await this.dueTxIds('PENDING')) {
      try {
        const known = await this.gatewayStatus(txId);
        if (known === 'confirmed') await this.setTxStatus(txId, 'PENDING', 'COMMITTED');
        else if (known === 'unknown') await this.notFound(txId);
        else await this.later(txId, 'PENDING', this.options.intervalMs);
      } catch (error) {
        await this.backOff(txId, 'PENDING', error);
      }
    }
  }

  /**
   * A posted transaction the gateway does not know: a gateway may answer 404 for a moment after a
   * post, so only after FORGOTTEN_AFTER polls in a row is it taken as dropped and posted again
   * (the same transaction) rather than flapping between PENDING and BUNDLED.
   */
  private async notFound(txId: string): Promise<void> {
    const row = await this.deps.db.selectFrom('storage_transactions').select('attempts').where('tx_id', '=', txId).where('status', '=', 'PENDING').executeTakeFirst();
    const misses = Number(row?.attempts ?? 0) + 1;
    if (misses >= FORGOTTEN_AFTER) return this.setTxStatus(txId, 'PENDING', 'BUNDLED');
    await this.deps.db
      .updateTable('storage_transactions')
      .set({ attempts: misses, next_attempt_at: Date.now() + this.options.intervalMs })
      .where('tx_id', '=', txId)
      .where('status', '=', 'PENDING')
      .execute();
  }

  private async gatewayStatus(txId: string): Promise<'confirmed' | 'pending' | 'unknown'> {
    const answer = await this.deps.arweave.transactions.getStatus(txId);
    if (answer.status === 404) return 'unknown';
    if (answer.status === 202) return 'pending';
    if (answer.status !== 200) throw new Error(`Gateway status ${answer.status}`);
    // arlocal answers 200 with confirmed 'Pending' until the tx is mined.
    const confirmed = answer.confirmed as { number_of_confirmations?: number } | null | string;
    if (confirmed && typeof confirmed === 'object' && (confirmed.number_of_confirmations ?? 0) >= this.options.confirmations) return 'confirmed';
    return 'pending';
  }

  // --- rows --------------------------------------------------------------------------------------

  private async dueTxIds(status: StorageTxStatus): Promise<string[]> {
    const rows = await this.deps.db
      .selectFrom('storage_transactions')
      .select('tx_id')
      .distinct()
      .where('status', '=', status)
      .where('next_attempt_at', '<=', Date.now())
      .where('tx_id', 'is not', null)
      .execute();
    return rows.map((r) => r.tx_id!).sort();
  }

  private async setTxStatus(txId: string, from: StorageTxStatus, to: StorageTxStatus): Promise<void> {
    const rows = await this.deps.db.selectFrom('storage_transactions').select(['id', 'kind']).where('tx_id', '=', txId).where('status', '=', from).execute();
    // R139: a confirmed NFT or collection is REGISTERED where a version (or history run) is COMMITTED.
    const minted = (kind: string) => kind === 'nft' || kind === 'collection';
    const groups: [string[], StorageTxStatus][] =
      to === 'COMMITTED'
        ? [
            [rows.filter((r) => !minted(r.kind)).map((r) => r.id), 'COMMITTED'],
            [rows.filter((r) => minted(r.kind)).map((r) => r.id), 'REGISTERED'],
          ]
        : [[rows.map((r) => r.id), to]];
    for (const [ids, status] of groups) await this.setStatus(ids, status, { attempts: 0, next_attempt_at: 0 }, from);
    if (FINAL_STORAGE_TX_STATUSES.includes(to)) await this.dropBundleData(txId);
  }

  /** A final bundle is never posted again: its copy of the bytes goes (the header row stays). */
  private async dropBundleData(txId: string): Promise<void> {
    const open = await this.deps.db
      .selectFrom('storage_transactions')
      .select('id')
      .where('tx_id', '=', txId)
      .where('status', 'not in', [...FINAL_STORAGE_TX_STATUSES])
      .executeTakeFirst();
    if (open) return;
    const stored = await this.deps.db.selectFrom('storage_bundles').select('data_key').where('tx_id', '=', txId).executeTakeFirst();
    if (stored) await this.deps.blobStore.delete(stored.data_key);
  }

  private async setStatus(ids: string[], status: StorageTxStatus, extra: Partial<Updateable<StorageTransactionsTable>>, from?: StorageTxStatus): Promise<void> {
    if (ids.length === 0) return;
    const update = (db: Kysely<Database>) => {
      let query = db
        .updateTable('storage_transactions')
        .set({ ...extra, status, updated_at: this.deps.clock.now() })
        .where('id', 'in', ids);
      if (from) query = query.where('status', '=', from);
      return query;
    };
    const { rewards } = this.deps;
    if (CONFIRMED_STORAGE_TX_STATUSES.includes(status) && rewards) {
      // R107: the reward in the status's own transaction, for the rows this update moved only
      // (another process that moved them credits them).
      const announce = await this.deps.db
        .transaction()
        .execute(async (trx) => rewards.creditRewards(trx, await update(trx).returning(['id', 'kind', 'size', 'uploader_user_id']).execute()));
      announce();
    } else await update(this.deps.db).execute();
    for (const id of ids) await this.report(id);
  }

  private async later(txId: string, status: StorageTxStatus, delayMs: number): Promise<void> {
    await this.deps.db
      .updateTable('storage_transactions')
      .set({ attempts: 0, next_attempt_at: Date.now() + delayMs })
      .where('tx_id', '=', txId)
      .where('status', '=', status)
      .execute();
  }

  private async backOff(txId: string, status: StorageTxStatus, error: unknown): Promise<void> {
    const row = await this.deps.db.selectFrom('storage_transactions').select('attempts').where('tx_id', '=', txId).where('status', '=', status).executeTakeFirst();
    const attempts = Number(row?.attempts ?? 0);
    const delay = this.backoffDelay(attempts);
    this.deps.log.warn({ txId, attempts, delayMs: delay, err: error }, 'arweave gateway error; retrying later');
    await this.deps.db
      .updateTable('storage_transactions')
      .set({ attempts: attempts + 1, next_attempt_at: Date.now() + delay })
      .where('tx_id', '=', txId)
      .where('status', '=', status)
      .execute();
  }

  private async report(id: string): Promise<void> {
    if (!this.deps.onChange) return;
    const row = await this.deps.db.selectFrom('storage_transactions').selectAll().where('id', '=', id).executeTakeFirst();
    // A history run is nobody's upload: its statuses are read through GET /vaults/{id}/history-items;
    // NFTs' and collections' through GET /vaults/{id}/nfts/chain (R140).
    if (row && row.kind === 'version') this.deps.onChange(toStorageTransaction(row), row.uploader_user_id);
  }
}

async function* oneChunk(data: Buffer): AsyncGenerator<Uint8Array> {
  yield data;
}
