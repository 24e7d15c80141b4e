/**
 * The U token's ledger (docs/SYNC_SPEC.md R105-R109): one chain of signed entries per server, and
 * a balance is the replay of that chain (src/crypto/ledger.ts `replayLedger`), so a client can
 * check every figure it is shown.
 *
 * - A **reward** credits an uploader when a permanent upload's storage transaction is COMMITTED.
 *   The server signs it, whole and placed (seq, prev, createdAt included), with its ledger key
 *   (`LedgerInfo.serverKey`); `reason` is the storage transaction's id, credited once.
 * - A **transfer** moves U from one address to another. The sender signs `transferSigningPayload`
 *   (id, from, fromKey, to, amount) with the account's Ed25519 key on the device; the server places
 *   it (seq, prev, createdAt). The id is the sender's and is recorded once: a replayed transfer is
 *   refused, and a chain that holds an id twice does not replay.
 *
 * Entries are chained: `prev` is `ledgerEntryHash` of the entry before (GENESIS_HASH for seq 1),
 * and seq has no gaps. Amounts are integer millionths of a U (1 U = 1,000,000, spec 002 section 9)
 * as decimal strings, so no figure ever passes through a float.
 */
import { z } from 'zod';
import { Address, Ed25519Signature, Hex32, Id } from './primitives';

/** Base units in one U (spec 002 section 9: "1 U = 1,000,000 base units"). */
export const MICRO_U_PER_U = 1_000_000;
/** The send action needs at least 0.0001 U (spec 002 section 5), in millionths. */
export const SEND_MIN_BALANCE = 100n;
/** On the free plan, sending needs more permanent storage than this (spec 002 section 5). */
export const FREE_PLAN_SEND_STORAGE_THRESHOLD = 100_000_000;
/** `prev` of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);
/** Entries per page of GET /ledger/entries and GET /utoken/entries. */
export const LEDGER_PAGE_MAX = 200;

/** The spec's texts (spec 002 section 5) the server answers with. */
export const LEDGER_TEXTS = {
  badAddress: 'Incorrect format for an Arweave wallet address.',
  overBalance: 'Amount exceeds total balance.',
} as const;

/**
 * A positive amount of millionths of a U: a decimal integer without leading zeros, at most 18
 * digits (under 2^63, so PostgreSQL bigint and every client's BigInt agree).
 */
export const MicroAmount = z.string().regex(/^[1-9][0-9]{0,17}$/, 'Expected a positive whole number of millionths of a U');

/** A balance: like an amount, but zero is one. */
export const MicroBalance = z.string().regex(/^(0|[1-9][0-9]*)$/);

/** 'claim' (R120): U withdrawn to an outside Arweave address, `to`; it leaves the ledger (nobody is credited). */
export const LedgerEntryKind = z.enum(['reward', 'transfer', 'claim']);
export type LedgerEntryKind = z.infer<typeof LedgerEntryKind>;

/** One entry as the server stores and serves it. */
export const LedgerEntry = z.strictObject({
  seq: z.number().int().positive(),
  id: Id,
  kind: LedgerEntryKind,
  /** The sender's address; null for a reward. */
  from: Address.nullable(),
  /** The sender's Ed25519 public key (hex), whose address `from` is; null for a reward. */
  fromKey: Hex32.nullable(),
  to: Address,
  amount: MicroAmount,
  /** A reward: the storage transaction it pays for. A transfer: null. */
  reason: z.string().min(1).max(64).nullable(),
  /** `ledgerEntryHash` of the entry at seq - 1, or GENESIS_HASH. */
  prev: Hex32,
  createdAt: z.number().int().nonnegative(),
  /** A transfer: the sender's signature over `transferSigningPayload`; a reward: the server's over `rewardSigningPayload`. */
  signature: Ed25519Signature,
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

/** POST /utoken/transfers: a transfer signed on the device. */
export const TransferRequest = z.strictObject({
  id: Id,
  from: Address,
  fromKey: Hex32,
  to: z.string().regex(/^[A-Za-z0-9_-]{43}$/, LEDGER_TEXTS.badAddress),
  amount: MicroAmount,
  signature: Ed25519Signature,
});
export type TransferRequest = z.infer<typeof TransferRequest>;

/** What a sender signs: the transfer without its place in the chain (the server gives that). */
export function transferSigningPayload(t: Pick<TransferRequest, 'id' | 'from' | 'fromKey' | 'to' | 'amount'>) {
  return { purpose: 'cairn-ledger-transfer', id: t.id, from: t.from, fromKey: t.fromKey, to: t.to, amount: t.amount };
}

/** What the server signs for a reward: the whole entry, placed. */
export function rewardSigningPayload(e: Pick<LedgerEntry, 'seq' | 'id' | 'to' | 'amount' | 'reason' | 'prev' | 'createdAt'>) {
  return { purpose: 'cairn-ledger-reward', seq: e.seq, id: e.id, to: e.to, amount: e.amount, reason: e.reason, prev: e.prev, createdAt: e.createdAt };
}

/**
 * What a claimant signs (R120): like a transfer, but its own purpose, so a signed transfer can
 * never be placed as a claim or the other way round.
 */
export function claimSigningPayload(t: Pick<TransferRequest, 'id' | 'from' | 'fromKey' | 'to' | 'amount'>) {
  return { purpose: 'cairn-ledger-claim', id: t.id, from: t.from, fromKey: t.fromKey, to: t.to, amount: t.amount };
}

/** GET /ledger: the key rewards are signed with, and the chain's head. */
export const LedgerInfo = z.strictObject({
  /** The server's ledger key (Ed25519, hex). */
  serverKey: Hex32,
  headSeq: z.number().int().nonnegative(),
  headHash: Hex32,
});
export type LedgerInfo = z.infer<typeof LedgerInfo>;

/** GET /utoken: the caller's balance (spec 002 section 7: "GET /utoken | balance"). */
export const TokenBalance = z.strictObject({
  address: Address,
  /** Millionths of a U. */
  balance: MicroBalance,
  /** The ledger's head when the balance was read: the balance is the replay of seq 1..headSeq. */
  headSeq: z.number().int().nonnegative(),
  /** Whether the caller's plan lets them send (R110): a paid plan, or over 100,000,000 bytes of permanent storage. */
  canSend: z.boolean(),
});
export type TokenBalance = z.infer<typeof TokenBalance>;

/** POST /utoken/transfers: the placed entry and the sender's balance after it. */
export const TransferResult = z.strictObject({ entry: LedgerEntry, balance: MicroBalance });
export type TransferResult = z.infer<typeof TransferResult>;

const PageLimit = z.coerce.number().int().min(1).max(LEDGER_PAGE_MAX).default(50);

/** GET /ledger/entries: the whole chain, oldest first, after a seq (to replay it). */
export const LedgerEntriesQuery = z.strictObject({ after: z.coerce.number().int().nonnegative().default(0), limit: PageLimit });
/** GET /utoken/entries: the caller's entries (to or from their address), newest first, before a seq. */
export const MyLedgerEntriesQuery = z.strictObject({ before: z.coerce.number().int().positive().optional(), limit: PageLimit });

/** A page of entries; `next` is the cursor of the following page (`after` or `before`), null at the end. */
export const LedgerEntryPage = z.strictObject({ items: z.array(LedgerEntry), next: z.number().int().nullable() });
export type LedgerEntryPage = z.infer<typeof LedgerEntryPage>;

/**
 * GET /utoken/price (R121): the price of 1 U in US dollars, from the operator's price source
 * (TOKEN_PRICE_URL); null when there is none or it cannot be read.
 */
export const TokenPrice = z.strictObject({ usd: z.number().nonnegative().nullable() });
export type TokenPrice = z.infer<typeof TokenPrice>;
