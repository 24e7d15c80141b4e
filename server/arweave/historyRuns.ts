/**
 * A permanent vault's history on the network (docs/SYNC_SPEC.md R84): the accepted operations of
 * each permanent vault, in runs of consecutive seqs, each run one data item the relay bundles,
 * posts and polls like a file version. This module makes the runs (rows of `storage_transactions`
 * with kind 'history', migration 0010) and builds a run's data and tags; ArweaveRelay does the rest.
 *
 * A run's data is built from the `ops` table whenever the relay needs it (to sign, then twice to
 * bundle): the stored bodies never change, so every build is the same bytes, and the bundle stream
 * checks them against the SHA-384 that was signed all the same. A run is at most
 * HISTORY_RUN_MAX_BYTES, so it is built in memory.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/Database';
import { isTransientDbError } from '../db/isTransientDbError';
import type { Clock } from '../services/Clock';
import { randomId } from '../services/tokens';
import { scheduledRow } from './storageTransactionRows';
import { HISTORY_FORMAT, HISTORY_FORMAT_VERSION } from '../../src/protocol/vaultHistory';

/** R84: a run is made once its newest operation is this old (a burst becomes one item). */
export const HISTORY_SETTLE_MS = 3_000;


export interface HistoryRunOptions {
  settleMs: number;
  maxOps: number;
  maxBytes: number;
}

interface OpSize {
  seq: number;
  received_at: number;
  body_bytes: number;
}

/** The JSON before the first operation of a run's data (R84's key order). */
function runHead(vaultId: string, seqFrom: number, seqTo: number): string {
  return `{"format":${JSON.stringify(HISTORY_FORMAT)},"version":${HISTORY_FORMAT_VERSION},"vaultId":${JSON.stringify(vaultId)},"seqFrom":${seqFrom},"seqTo":${seqTo},"ops":[`;
}

/** One operation's entry: the stored canonical body goes in verbatim, so its signature still verifies. */
function runEntry(seq: number, receivedAt: number, body: string): string {
  return `{"seq":${seq},"receivedAt":${receivedAt},"op":${body}}`;
}

/** The size of an entry whose body is `bodyBytes` UTF-8 bytes, without building it. */
function entryBytes(op: OpSize): number {
  return Buffer.byteLength(runEntry(Number(op.seq), Number(op.received_at), '')) + Number(op.body_bytes);
}

/**
 * The data of the run `seqFrom..seqTo` of `vaultId` (R84), from the stored operations; null when
 * the log lacks one of them (it never should: the log is append-only).
 */
export async function buildRunData(db: Kysely<Database>, vaultId: string, seqFrom: number, seqTo: number): Promise<Buffer | null> {
  const ops = await db
    .selectFrom('ops')
    .select(['seq', 'received_at', 'body'])
    .where('vault_id', '=', vaultId)
    .where('seq', '>=', seqFrom)
    .where('seq', '<=', seqTo)
    .orderBy('seq')
    .execute();
  if (ops.length !== seqTo - seqFrom + 1 || ops.some((op, index) => Number(op.seq) !== seqFrom + index)) return null;
  const entries = ops.map((op) => runEntry(Number(op.seq), Number(op.received_at), op.body));
  return Buffer.from(`${runHead(vaultId, seqFrom, seqTo)}${entries.join(',')}]}`, 'utf8');
}

/**
 * Makes every run that is due, vault by vault: the operations after the vault's `history_seq`, at
 * most `maxOps` and `maxBytes` of data, once the newest of them is `settleMs` old or the run is
 * full. Each run is recorded (a SCHEDULED row) in the transaction that advances `history_seq`
 * from the value read, so a process that lost the race records nothing. Answers the new rows' ids.
 */
export async function makeHistoryRuns(db: Kysely<Database>, clock: Clock, options: HistoryRunOptions): Promise<string[]> {
  const made: string[] = [];
  const vaults = await db
    .selectFrom('vaults')
    .select(['id', 'owner_user_id', 'history_seq', 'head_seq'])
    .where('is_cloud', '=', 0)
    .whereRef('head_seq', '>', 'history_seq')
    .orderBy('id')
    .limit(500)
    .execute();
  for (const vault of vaults) {
    let historySeq = Number(vault.history_seq);
    for (;;) {
      const run = await nextRun(db, vault.id, historySeq, clock.now(), options);
      if (!run) break;
      let recorded: { id: string; seqTo: number } | null;
      try {
        recorded = await recordRun(db, clock, vault.id, vault.owner_user_id, historySeq, run, options.maxBytes);
      } catch (error) {
        // Another process holds the write lock (SQLite) or won a conflict: it is making this run,
        // or the next pass will.
        if (isTransientDbError(error)) return made;
        throw error;
      }
      if (!recorded) break;
      made.push(recorded.id);
      historySeq = recorded.seqTo;
    }
  }
  return made;
}

interface PlannedRun {
  seqFrom: number;
  seqTo: number;
}

/** The next run after `historySeq`, or null when none is due yet. Reads sizes only (ops_sizes index). */
async function nextRun(db: Kysely<Database>, vaultId: string, historySeq: number, now: number, options: HistoryRunOptions): Promise<PlannedRun | null> {
  const ops = await db
    .selectFrom('ops')
    .select(['seq', 'received_at', 'body_bytes'])
    .where('vault_id', '=', vaultId)
    .where('seq', '>', historySeq)
    .orderBy('seq')
    .limit(options.maxOps + 1)
    .execute();
  if (ops.length === 0 || Number(ops[0]!.seq) !== historySeq + 1) return null;
  const seqFrom = historySeq + 1;
  // The head and its closing brackets; the seqs' digits are counted at their largest.
  let size = Buffer.byteLength(runHead(vaultId, seqFrom, seqFrom + options.maxOps)) + 2;
  let count = 0;
  let full = false;
  for (const op of ops) {
    if (Number(op.seq) !== seqFrom + count) break; // a gap: the log is still being written there
    if (count === options.maxOps) {
      full = true;
      break;
    }
    const bytes = entryBytes(op) + (count > 0 ? 1 : 0);
    if (count > 0 && size + bytes > options.maxBytes) {
      full = true;
      break;
    }
    size += bytes;
    count += 1;
  }
  const newest = ops[count - 1]!;
  if (!full && now - Number(newest.received_at) < options.settleMs) return null;
  return { seqFrom, seqTo: seqFrom + count - 1 };
}

/**
 * Records `run` and moves the vault's `history_seq` past it, only if it is still `historySeq`
 * (another process may have made this run). Answers the row's id and the run's last seq (a run
 * found over `maxBytes` once built is cut short), or null when the race was lost.
 */
async function recordRun(db: Kysely<Database>, clock: Clock, vaultId: string, ownerUserId: string, historySeq: number, run: PlannedRun, maxBytes: number): Promise<{ id: string; seqTo: number } | null> {
  // Built now for its exact size (the storage page counts it); the relay builds it again to sign.
  let data = await buildRunData(db, vaultId, run.seqFrom, run.seqTo);
  // `body_bytes` of logs from before 0007 count characters: a run planned from them may be over.
  while (data && data.length > maxBytes && run.seqTo > run.seqFrom) {
    run = { ...run, seqTo: run.seqTo - 1 };
    data = await buildRunData(db, vaultId, run.seqFrom, run.seqTo);
  }
  if (!data) return null;
  const id = randomId();
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('vaults')
      .set({ history_seq: run.seqTo })
      .where('id', '=', vaultId)
      .where('history_seq', '=', historySeq)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return null;
    await trx
      .insertInto('storage_transactions')
      .values(
        scheduledRow({
          id,
          vault_id: vaultId,
          kind: 'history',
          seq_from: run.seqFrom,
          seq_to: run.seqTo,
          // A run has no file, version or blob (migration 0010): the unique version_id keeps one seq in one run.
          file_id: '',
          version_id: `history:${vaultId}:${run.seqFrom}`,
          blob_id: '',
          uploader_user_id: ownerUserId,
          size: data.length,
          created_at: now,
        }),
      )
      .execute();
    return { id, seqTo: run.seqTo };
  });
}
