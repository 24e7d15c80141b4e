/**
 * The reader of a permanent vault's history (docs/SYNC_SPEC.md R86): from items anyone could have
 * posted, it chains the runs the device's own judge accepts from the `vault.create` on
 * (src/domain/vaultLog.ts, the rules a member's device applies on pull, src/sync/pull.ts), opens
 * the key ring the log handed to the reader's key, opens the sealed names and folds the accepted
 * operations into the vault's projection with the app's own `applyOperation`. The bytes of a
 * version are then read by `readVersion`, each chunk checked against the hash its uploader signed
 * before a byte of it is handed on.
 *
 * Where the items come from is a `VaultItemSource`: a gateway (gatewaySource.ts) or an encrypted
 * export (encryptedExport.ts). Browser-safe (fetch, streams, WebCrypto, libsodium): the `cairn`
 * command line uses it, and so does the app's 'Restore a vault from the network', in the crypto
 * worker (workers/crypto/restoreJudge.ts, R96).
 */
import type { OpenedFields } from '../../workers/crypto/CryptoApi';
import { base64UrlToBytes, bytesToHex } from '../crypto/encoding';
import { openField } from '../crypto/fieldEnvelope';
import { chunkHeaderFor, decryptChunk, FILE_KEY_BYTES, importFileKey, plainChunkSize, sha256Hex, type ChunkHeader } from '../crypto/fileChunks';
import { openKeyRing, type KeyRing } from '../crypto/keyRing';
import type { WalletKeys } from '../crypto/keys';
import { verifyOperations } from '../crypto/operations';
import { loadSodium, type Sodium } from '../crypto/sodium';
import { judgeOperation, newVaultLogState, trustedRingKeyCount, type VaultLogState } from '../domain/vaultLog';
import { operationFieldSlots } from '../protocol/operationRules';
import { CHUNK_TAG_BYTES, type Field, type FileVersion, type Operation, type SequencedOperation } from '../protocol/vaults';
import { emptyVaultRecord, newVaultState, type VaultState } from '../storage/vaultProjection';
import { applyOperation, computeFolderSizes } from '../sync/applyOperation';
import type { VaultHistoryRun as HistoryRun } from '../protocol/vaultHistory';
import { parseRun } from './historyFormat';

/** Why a restore stopped; the command line maps each to its exit code. */
export const RESTORE_FAILURES = ['BAD_INPUT', 'WRONG_PHRASE', 'UNKNOWN_VAULT', 'TAMPERED', 'UNREACHABLE'] as const;
export type RestoreFailure = (typeof RESTORE_FAILURES)[number];

/** A restore that cannot go on: `message` is one line a user can act on. */
export class RestoreError extends Error {
  constructor(
    readonly code: RestoreFailure,
    message: string,
  ) {
    super(message);
    this.name = 'RestoreError';
  }
}

/** An item that claims to be a run of the vault's history (R84). Nothing about it is believed. */
export interface HistoryItem {
  id: string;
  /** The address of the wallet that signed it (R86 prefers one owner's runs). */
  owner: string;
  /** The height of the block that holds it, null while pending or unknown (R98: posted first, read first). */
  height: number | null;
  seqFrom: number;
  seqTo: number;
  read(): Promise<Uint8Array>;
}

/** An item that claims to hold a version's stored bytes (R85). */
export interface FileItem {
  id: string;
  /** Its data size when the source says, else null (then the chunks tell). */
  size: number | null;
  open(): Promise<AsyncIterable<Uint8Array>>;
}

/** Where a vault's items are read from: a gateway, or an encrypted export. */
export interface VaultItemSource {
  /** For messages: "the gateway https://…", "the export file x.zip". */
  readonly label: string;
  historyItems(vaultId: string): AsyncIterable<HistoryItem>;
  fileItems(vaultId: string, blobId: string): AsyncIterable<FileItem>;
}

/** What the reader rebuilt: the judged log and the vault as its members see it. */
export interface RestoredVault {
  vaultId: string;
  headSeq: number;
  log: VaultLogState;
  /** The vault's projection (names opened), as a device's after a full pull. */
  state: VaultState;
  /** The ring the log handed to the reader (empty for a public vault). */
  ring: KeyRing;
  /** Every accepted operation with its opened fields, in seq order (the timeline's input). */
  ops: { entry: SequencedOperation; fields: OpenedFields }[];
  /** Where the verified chain ends (R98): said to the user with `describeHistoryEnd`. */
  end: HistoryEnd;
}

/** R98: the last verified seq, when it was received, and how many items claiming later seqs were passed over. */
export interface HistoryEnd {
  seq: number;
  receivedAt: number;
  passedOver: number;
}

/** R98's one line on where the restored history ends, for the command's output and the app's result. */
export function describeHistoryEnd(end: HistoryEnd, label: string): string {
  const when = new Date(end.receivedAt).toISOString().replace(/:\d{2}\.\d{3}Z$/, ' UTC').replace('T', ' ');
  const restored = `The history is restored to seq ${end.seq}, received ${when}`;
  if (end.passedOver === 0) return `${restored}: its last operation.`;
  return `${restored}, where its signed chain ends: ${end.passedOver} item(s) on ${label} that claim later operations do not verify as this vault's and were passed over.`;
}

export type Progress = (line: string) => void;

interface Candidate {
  item: HistoryItem;
  run: HistoryRun;
  /** Where the source listed it: the last tie-break of R98's order. */
  listed: number;
}

/**
 * Reads every item tagged as a run of `vaultId`, chains them from seq 1 and judges each operation
 * (R86), then opens and folds the log. Throws RestoreError: UNKNOWN_VAULT (no run at all),
 * TAMPERED (a refused operation, named by its seq; a gap), WRONG_PHRASE (the key is not a member
 * at the end, or no ring the log handed out opens with it).
 */
export async function readVaultHistory(source: VaultItemSource, vaultId: string, keys: WalletKeys, progress: Progress = () => {}): Promise<RestoredVault> {
  const bySeqFrom = new Map<number, Candidate[]>();
  const claimedSeqTo: number[] = [];
  let itemCount = 0;
  for await (const item of source.historyItems(vaultId)) {
    itemCount += 1;
    claimedSeqTo.push(item.seqTo);
    const run = parseRun(await item.read(), { vaultId, seqFrom: item.seqFrom, seqTo: item.seqTo });
    if (!run) continue;
    const list = bySeqFrom.get(run.seqFrom) ?? [];
    list.push({ item, run, listed: itemCount });
    bySeqFrom.set(run.seqFrom, list);
  }
  if (itemCount === 0) throw new RestoreError('UNKNOWN_VAULT', `No history of vault ${vaultId} is on ${source.label}: check the vault id and the gateway.`);
  if (!bySeqFrom.has(1)) throw new RestoreError('UNKNOWN_VAULT', `No readable history of vault ${vaultId} is on ${source.label} (no run starts at its creation).`);
  progress(`Found ${itemCount} history item(s) of vault ${vaultId}`);

  const { log, ops } = await chainRuns(vaultId, bySeqFrom);
  if (ops.length === 0) {
    // Only runs nobody the chain trusts posted claim the creation, and none verifies (R98).
    throw new RestoreError('UNKNOWN_VAULT', `No history of vault ${vaultId} on ${source.label} verifies from its creation: check the vault id and the gateway.`);
  }
  progress(`Verified ${ops.length} operation(s), seq 1 to ${log.seq}`);
  const end: HistoryEnd = { seq: log.seq, receivedAt: ops.at(-1)!.receivedAt, passedOver: claimedSeqTo.filter((seqTo) => seqTo > log.seq).length };
  progress(describeHistoryEnd(end, source.label));

  const me = bytesToHex(keys.signingPublicKey);
  const isMember = Object.values(log.members).some((m) => m.key === me && m.status !== 'REJECTED' && m.status !== 'REVOKED' && m.role !== 'REVOKED');
  if (!isMember) throw new RestoreError('WRONG_PHRASE', `This recovery phrase is not a member of vault ${vaultId}: check the 12 words.`);

  const sodium = await loadSodium();
  const ring = log.isPublic ? [] : openOwnRing(sodium, log, ops, keys);
  if (!log.isPublic && ring.length === 0) {
    throw new RestoreError('WRONG_PHRASE', `No key ring of vault ${vaultId} opens with this recovery phrase: check the 12 words.`);
  }

  const state = newVaultState(emptyVaultRecord('restore', vaultId));
  const opened: RestoredVault['ops'] = [];
  for (const entry of ops) {
    const fields = openFields(sodium, ring, entry.op);
    opened.push({ entry, fields });
    applyOperation(state, { op: entry.op, fields, time: entry.receivedAt, isPending: false, seq: entry.seq });
  }
  computeFolderSizes(state);
  state.vault.cursor = log.seq;
  state.vault.headSeq = log.seq;
  return { vaultId, headSeq: log.seq, log, state, ring, ops: opened, end };
}

/**
 * R86's chain with R98's order: at each point the runs that start there are tried, those of the
 * previous run's owner first, then the one posted first (lowest block height, pending last), then
 * the longer; the first whose every operation the judge accepts, none repeating an operation
 * already in the chain, is taken. A refused run is foreign and passed over, unless its wallet is
 * one whose runs the chain already took: the vault's own chain changed, an error naming the first
 * refused operation. When no run continues the chain it ends there; a run of a wallet the chain
 * took that starts past the end means one in between is missing, an error too.
 */
async function chainRuns(vaultId: string, bySeqFrom: Map<number, Candidate[]>): Promise<{ log: VaultLogState; ops: SequencedOperation[] }> {
  let log = newVaultLogState();
  const ops: SequencedOperation[] = [];
  // The server keeps an operation id once (operations.op_id is unique), so a repeated id is a replay.
  const opIds = new Set<string>();
  const trustedOwners = new Set<string>();
  let previousOwner: string | null = null;
  for (;;) {
    const next = log.seq + 1;
    const candidates = [...(bySeqFrom.get(next) ?? [])].sort(
      (a, b) => Number(b.item.owner === previousOwner) - Number(a.item.owner === previousOwner) || postedOrder(a, b) || b.run.seqTo - a.run.seqTo || a.listed - b.listed,
    );
    if (candidates.length === 0) break;
    let trustedRefusal: { seq: number; reason: string } | null = null;
    let taken: { candidate: Candidate; log: VaultLogState } | null = null;
    for (const candidate of candidates) {
      const trial = structuredClone(log);
      const refusal = await judgeRun(vaultId, trial, candidate.run, opIds);
      if (!refusal) {
        taken = { candidate, log: trial };
        break;
      }
      if (trustedOwners.has(candidate.item.owner)) trustedRefusal ??= refusal;
    }
    if (!taken) {
      if (trustedRefusal) {
        throw new RestoreError('TAMPERED', `Operation ${trustedRefusal.seq} of vault ${vaultId} is refused: ${trustedRefusal.reason}. The history on the network was changed.`);
      }
      // R98: only strangers' runs claim this seq; the vault's history ends before it.
      break;
    }
    log = taken.log;
    ops.push(...taken.candidate.run.ops);
    for (const entry of taken.candidate.run.ops) opIds.add(entry.op.id);
    previousOwner = taken.candidate.item.owner;
    trustedOwners.add(previousOwner);
  }
  // A trusted wallet's run that starts past the end: a run in between is missing. A stranger
  // cannot trigger this: their wallet is trusted only once a run of theirs was taken, and R98's
  // order takes the run posted first, so a copy of the vault's own runs never wins.
  for (const [seqFrom, candidates] of bySeqFrom) {
    if (seqFrom > log.seq && candidates.some((c) => trustedOwners.has(c.item.owner))) {
      throw new RestoreError('TAMPERED', `The history of vault ${vaultId} stops at seq ${log.seq}, but a run from seq ${seqFrom} exists: a run in between is missing.`);
    }
  }
  return { log, ops };
}

/** R98: the item posted first comes first; a pending one (no block yet) after every mined one. */
function postedOrder(a: Candidate, b: Candidate): number {
  const ha = a.item.height ?? Number.POSITIVE_INFINITY;
  const hb = b.item.height ?? Number.POSITIVE_INFINITY;
  return ha === hb ? 0 : ha < hb ? -1 : 1;
}

/** Judges every operation of `run` into `trial`; the first refusal, or null when all are accepted. */
async function judgeRun(vaultId: string, trial: VaultLogState, run: HistoryRun, opIds: Set<string>): Promise<{ seq: number; reason: string } | null> {
  const verdicts = await verifyOperations(run.ops.map((entry) => entry.op));
  const inRun = new Set<string>();
  for (const [i, entry] of run.ops.entries()) {
    if (opIds.has(entry.op.id) || inRun.has(entry.op.id)) return { seq: entry.seq, reason: 'it repeats an operation already in the log' };
    inRun.add(entry.op.id);
    const verdict = judgeOperation(trial, vaultId, entry, verdicts[i] === true);
    if (!verdict.isAccepted) return { seq: entry.seq, reason: verdict.reason };
  }
  return null;
}

/** Every ring an accepted operation handed out (R51: only those are trusted). */
function sealedRingsOf(op: Operation): string[] {
  const body = op.body;
  switch (body.type) {
    case 'vault.create':
      return body.ownerKeys ? [body.ownerKeys] : [];
    case 'member.invite':
    case 'member.confirm':
    case 'member.airdrop':
      return body.keys ? [body.keys] : [];
    case 'member.revoke':
      return body.rotation ? Object.values(body.rotation.sealedKeys) : [];
    case 'vault.rotateKeys':
      return Object.values(body.rotation.sealedKeys);
    default:
      return [];
  }
}

/** The largest ring the log handed out that opens with the reader's key; [] when none does. */
function openOwnRing(sodium: Sodium, log: VaultLogState, ops: SequencedOperation[], keys: WalletKeys): KeyRing {
  let best: KeyRing = [];
  for (const { op } of ops) {
    for (const sealed of sealedRingsOf(op)) {
      const count = trustedRingKeyCount(log, sealed);
      if (count === undefined || count <= best.length) continue;
      try {
        const ring = openKeyRing(sodium, sealed, keys.encryptionPublicKey, keys.encryptionPrivateKey);
        if (ring.length >= count) best = ring.slice(0, count);
      } catch {
        // Sealed to another member.
      }
    }
  }
  return best;
}

/** Opens an accepted operation's user texts (not `fileKey`, opened per download), as the crypto worker does. */
function openFields(sodium: Sodium, ring: KeyRing, op: Operation): OpenedFields {
  const fields: OpenedFields = {};
  for (const { name, objectId, holder, property } of operationFieldSlots(op.body, op.objectId)) {
    if (name === 'fileKey') continue;
    const value = holder[property] as Field | undefined;
    if (!value) continue;
    fields[name] = openOne(sodium, ring, op.vaultId, objectId, name, value);
  }
  return fields;
}

function openOne(sodium: Sodium, ring: KeyRing, vaultId: string, objectId: string, field: Parameters<typeof openField>[2]['field'], value: Field): string | null {
  if ('clear' in value) return value.clear;
  const key = ring[value.key];
  if (!key) return null;
  try {
    return openField(sodium, key, { vaultId, objectId, field }, value);
  } catch {
    return null;
  }
}

/** Where a version's plain bytes go: written as they come, kept only when `finish` is called. */
export interface VersionSink {
  write(bytes: Uint8Array): Promise<void>;
  /** The item in hand failed a check: drop what was written, the next item starts over. */
  discard(): Promise<void>;
  finish(): Promise<void>;
}

/** Splits a stream into the stored chunks of `header` (the last shorter); extra bytes are an error. */
export async function* storedChunks(stream: AsyncIterable<Uint8Array>, header: ChunkHeader, isEncrypted: boolean): AsyncGenerator<Uint8Array> {
  const tag = isEncrypted ? CHUNK_TAG_BYTES : 0;
  let index = 0;
  let want = plainChunkSize(0, header) + tag;
  let parts: Uint8Array[] = [];
  let held = 0;
  for await (const piece of stream) {
    let offset = 0;
    while (offset < piece.length) {
      if (index >= header.chunkCount) throw new Error('longer than its version');
      const take = Math.min(want - held, piece.length - offset);
      parts.push(piece.subarray(offset, offset + take));
      held += take;
      offset += take;
      if (held === want) {
        const chunk = new Uint8Array(want);
        let at = 0;
        for (const part of parts) {
          chunk.set(part, at);
          at += part.length;
        }
        yield chunk;
        parts = [];
        held = 0;
        index += 1;
        if (index < header.chunkCount) want = plainChunkSize(index, header) + tag;
      }
    }
  }
  if (index !== header.chunkCount) throw new Error('shorter than its version');
}

/**
 * Reads version `version` of file `displayName` from the first item of its blob whose every
 * chunk has the hash the signed version lists (R86), decrypting each chunk as it comes (private
 * vaults: the version's sealed `fileKey` opened with the ring) into `sink`, one chunk in memory
 * at a time. An item that fails is discarded and the next one tried; none left: TAMPERED naming
 * the file.
 */
export async function readVersion(
  source: VaultItemSource,
  restored: RestoredVault,
  version: FileVersion,
  displayName: string,
  sink: VersionSink,
): Promise<void> {
  const header = chunkHeaderFor(version.size, version.chunkSize);
  const isEncrypted = version.fileKey !== undefined;
  if (header.chunkCount !== version.chunkCount || version.chunkHashes.length !== version.chunkCount) {
    throw new RestoreError('TAMPERED', `The file "${displayName}" has a version whose chunk count does not match its size.`);
  }
  const key = isEncrypted ? await openFileKey(restored, version, displayName) : null;
  let lastProblem = 'no item holds its bytes';
  for await (const item of source.fileItems(restored.vaultId, version.blobId)) {
    if (item.size !== null && item.size !== version.storedSize) {
      lastProblem = `item ${item.id} is ${item.size} bytes where the version stores ${version.storedSize}`;
      continue;
    }
    let index = 0;
    try {
      for await (const chunk of storedChunks(await item.open(), header, isEncrypted)) {
        if ((await sha256Hex(chunk)) !== version.chunkHashes[index]) throw new Error(`chunk ${index + 1} of ${header.chunkCount} does not match its signed hash`);
        await sink.write(key ? await decryptChunk(key, index, header, chunk) : chunk);
        index += 1;
      }
      await sink.finish();
      return;
    } catch (error) {
      await sink.discard();
      if (error instanceof RestoreError) throw error;
      lastProblem = `item ${item.id}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  throw new RestoreError('TAMPERED', `The file "${displayName}" has no intact copy on ${source.label} (${lastProblem}).`);
}

async function openFileKey(restored: RestoredVault, version: FileVersion, displayName: string) {
  const sealed = version.fileKey!;
  const ringKey = restored.ring[sealed.key];
  try {
    if (!ringKey) throw new Error('no key');
    const sodium = await loadSodium();
    const raw = base64UrlToBytes(openField(sodium, ringKey, { vaultId: restored.vaultId, objectId: version.versionId, field: 'fileKey' }, sealed));
    if (raw.length !== FILE_KEY_BYTES) throw new Error('length');
    return await importFileKey(raw);
  } catch {
    throw new RestoreError('TAMPERED', `The key of the file "${displayName}" does not open with the vault's keys.`);
  }
}
