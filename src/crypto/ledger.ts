/**
 * The U token's ledger, checked (docs/SYNC_SPEC.md R105-R109; formats in src/protocol/ledger.ts).
 *
 * `replayLedger` is the one definition of a balance: the server runs it on each entry before it
 * appends it (from its stored head and balances), and a client runs it over what it is served
 * (GET /ledger/entries from seq 1), so neither has to trust the other's figures. Pure apart from
 * WebCrypto (SHA-256, Ed25519 through verifyEd25519Many), which browsers, workers and Node share.
 */
import { canonicalBytes } from '../protocol/canonical';
import {
  claimSigningPayload,
  GENESIS_HASH,
  LedgerEntry,
  rewardSigningPayload,
  transferSigningPayload,
  type TransferRequest,
} from '../protocol/ledger';
import { base64UrlToBytes, bytesToBase64Url, bytesToHex, hexToBytes } from './encoding';
import { signPayload } from './signatures';
import { type Ed25519Implementation, type SignedMessage, verifyEd25519Many } from './verifyEd25519Many';

/** SHA-256 (hex) of the entry's canonical encoding, signature included: the next entry's `prev`. */
export async function ledgerEntryHash(entry: LedgerEntry): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new Uint8Array(canonicalBytes(entry)));
  return bytesToHex(new Uint8Array(digest));
}

/** The address of a public key (hex): base64url(SHA-256(key)), as src/crypto/address.ts. */
async function addressOfHex(publicKeyHex: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', hexToBytes(publicKeyHex));
  return bytesToBase64Url(new Uint8Array(digest));
}

/** Signs a transfer on the device with the account's 64-byte libsodium Ed25519 secret key. */
export async function signTransfer(
  signingPrivateKey: Uint8Array,
  transfer: Omit<TransferRequest, 'signature'>,
): Promise<TransferRequest> {
  const { id, from, fromKey, to, amount } = transfer;
  return { id, from, fromKey, to, amount, signature: await signPayload(signingPrivateKey, transferSigningPayload(transfer)) };
}

/** Signs a claim (R120): U out of the ledger to the outside address `to`. */
export async function signClaim(
  signingPrivateKey: Uint8Array,
  claim: Omit<TransferRequest, 'signature'>,
): Promise<TransferRequest> {
  const { id, from, fromKey, to, amount } = claim;
  return { id, from, fromKey, to, amount, signature: await signPayload(signingPrivateKey, claimSigningPayload(claim)) };
}

/** Why an entry does not replay. */
export type LedgerFault =
  /** Not an entry at all (fields, types), or a reward with a sender or a transfer without one. */
  | 'malformed'
  /** Not the next seq. */
  | 'seq'
  /** `prev` is not the hash of the entry before. */
  | 'chain'
  /** The signature is not the sender's (transfer) or the server's (reward). */
  | 'signature'
  /** A transfer whose `from` is not the address of `fromKey`, or that sends to itself. */
  | 'sender'
  /** An id the chain already holds (a replayed transfer). */
  | 'duplicate-id'
  /** A second reward for the same storage transaction. */
  | 'duplicate-reason'
  /** A transfer of more than the sender holds. */
  | 'overdraw';

/** Where a replay starts: the head after seq `seq` and the balances then (absent: 0). */
export interface LedgerCheckpoint {
  seq: number;
  hash: string;
  balances: ReadonlyMap<string, bigint>;
}

export interface LedgerReplay {
  /** Balances after the last good entry (millionths of a U); an address absent holds 0. */
  balances: Map<string, bigint>;
  /** The last good entry's seq and hash (the checkpoint's when none is good). */
  headSeq: number;
  headHash: string;
  /** The first entry that does not replay, and why; null when every one does. */
  bad: { seq: number; id: string; fault: LedgerFault } | null;
}

export interface ReplayOptions {
  /** The server's ledger key (hex), which signs rewards (GET /ledger). */
  serverKey: string;
  /** Default: the empty ledger (seq 0, GENESIS_HASH, no balances). */
  from?: LedgerCheckpoint;
  /** For tests; default as verifyEd25519Many chooses. */
  implementation?: Ed25519Implementation;
}

const EMPTY = new Uint8Array(0);

/** The signed message of an entry, or an empty one (which verifies nothing) when it has none. */
function signedMessageOf(entry: LedgerEntry, serverKey: string): SignedMessage {
  try {
    if (entry.kind === 'reward') {
      return { publicKey: hexToBytes(serverKey), message: canonicalBytes(rewardSigningPayload(entry)), signature: base64UrlToBytes(entry.signature) };
    }
    if (!entry.from || !entry.fromKey) return { publicKey: EMPTY, message: EMPTY, signature: EMPTY };
    const fields = { id: entry.id, from: entry.from, fromKey: entry.fromKey, to: entry.to, amount: entry.amount };
    const payload = entry.kind === 'claim' ? claimSigningPayload(fields) : transferSigningPayload(fields);
    return { publicKey: hexToBytes(entry.fromKey), message: canonicalBytes(payload), signature: base64UrlToBytes(entry.signature) };
  } catch {
    return { publicKey: EMPTY, message: EMPTY, signature: EMPTY };
  }
}

/**
 * Replays `entries` (in seq order) from `options.from`: checks each entry's shape, that its seq is
 * the next one and its `prev` the hash of the one before, its signature (the sender's key for a
 * transfer, whose address must be `from`; the server's key for a reward), that no id and no
 * reward's reason comes twice, and that no transfer takes more than its sender holds. A claim
 * (R120) is checked like a transfer (its own signed purpose) but credits nobody. Stops at
 * the first entry that fails and says which and why; the balances are those before it.
 * Never throws for bad input.
 */
export async function replayLedger(entries: readonly unknown[], options: ReplayOptions): Promise<LedgerReplay> {
  const start = options.from ?? { seq: 0, hash: GENESIS_HASH, balances: new Map<string, bigint>() };
  const balances = new Map(start.balances);
  let headSeq = start.seq;
  let headHash = start.hash;
  const parsed = entries.map((e) => LedgerEntry.safeParse(e));
  const good = parsed.map((p) => (p.success ? p.data : null));
  // Signatures are checked together (the costly part), then the chain in order.
  const verdicts = await verifyEd25519Many(
    good.map((e) => (e ? signedMessageOf(e, options.serverKey) : { publicKey: EMPTY, message: EMPTY, signature: EMPTY })),
    options.implementation,
  );
  const ids = new Set<string>();
  const reasons = new Set<string>();
  const fail = (index: number, fault: LedgerFault): LedgerReplay => {
    const raw = entries[index] as { seq?: unknown; id?: unknown } | null;
    const seq = typeof raw?.seq === 'number' ? raw.seq : headSeq + 1;
    const id = typeof raw?.id === 'string' ? raw.id : '';
    return { balances, headSeq, headHash, bad: { seq, id, fault } };
  };
  for (const [index, entry] of good.entries()) {
    if (!entry) return fail(index, 'malformed');
    const isReward = entry.kind === 'reward';
    if (isReward ? entry.from !== null || entry.fromKey !== null || entry.reason === null : entry.from === null || entry.fromKey === null || entry.reason !== null) {
      return fail(index, 'malformed');
    }
    if (entry.seq !== headSeq + 1) return fail(index, 'seq');
    if (entry.prev !== headHash) return fail(index, 'chain');
    if (!verdicts[index]) return fail(index, 'signature');
    if (!isReward && (entry.from === entry.to || (await addressOfHex(entry.fromKey!)) !== entry.from)) return fail(index, 'sender');
    if (ids.has(entry.id)) return fail(index, 'duplicate-id');
    if (isReward && reasons.has(entry.reason!)) return fail(index, 'duplicate-reason');
    const amount = BigInt(entry.amount);
    if (!isReward) {
      const held = balances.get(entry.from!) ?? 0n;
      if (held < amount) return fail(index, 'overdraw');
      balances.set(entry.from!, held - amount);
    }
    // A claim (R120) leaves the ledger: its outside address is credited nothing here.
    if (entry.kind !== 'claim') balances.set(entry.to, (balances.get(entry.to) ?? 0n) + amount);
    ids.add(entry.id);
    if (isReward) reasons.add(entry.reason!);
    headSeq = entry.seq;
    headHash = await ledgerEntryHash(entry);
  }
  return { balances, headSeq, headHash, bad: null };
}
