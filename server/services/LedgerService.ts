/**
 * The U token's ledger on the server (docs/SYNC_SPEC.md R105-R109; formats in
 * src/protocol/ledger.ts). Every append, reward or transfer, goes through `append`: it locks the
 * ledger's head row, places the entry (seq, prev, createdAt), checks it with `replayLedger` from
 * the stored head and balances (the same function a client replays the chain with), and writes
 * the entry, the balances and the new head in the caller's transaction. So two appends never
 * share a seq, and two transfers that together overdraw cannot both pass the check, whichever
 * processes take them.
 */
import crypto from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { canonicalBytes } from '../../src/protocol/canonical';
import { replayLedger, type LedgerFault } from '../../src/crypto/ledger';
import { ApiError } from '../../src/protocol/errors';
import { type Claim, type ClaimList, type ClaimRequest, type ClaimResult, CLAIM_TEXTS } from '../../src/protocol/claims';
import {
  claimSigningPayload,
  FREE_PLAN_SEND_STORAGE_THRESHOLD,
  LEDGER_TEXTS,
  type LedgerEntry,
  type LedgerEntryPage,
  type LedgerInfo,
  rewardSigningPayload,
  SEND_MIN_BALANCE,
  type TokenBalance,
  transferSigningPayload,
  type TransferRequest,
  type TransferResult,
} from '../../src/protocol/ledger';
import type { Database, LedgerEntriesTable } from '../db/Database';
import { isUniqueViolation } from '../db/isUniqueViolation';
import type { BalanceDelivery, LedgerBus } from '../realtime/LedgerBus';
import type { Clock } from './Clock';
import { verifySignedPayload } from './signatures';
import type { StorageService } from './StorageService';
import type { AllowanceService } from './AllowanceService';
import { isFreePlan } from '../../src/protocol/plans';
import type { User } from './UserService';

const LEDGER_KEY_SECRET = 'ledger-signing-key';
const MIB = 1024n * 1024n;

/** The server's ledger key: signs rewards (R107). Its private half never leaves `server_secrets`. */
export interface LedgerKey {
  /** Ed25519 public key, hex. */
  publicKey: string;
  sign(payload: unknown): string;
}

/**
 * Whether an account's plan lets it send $U (spec 002 section 5: not "on the free plan with storage
 * total of 100,000,000 or less"). A port, so plans (issue 21's other half) can say which plan an
 * account is on; until then every account is on the free plan.
 */
export interface SendPolicy {
  allowsSending(userId: string): Promise<boolean>;
}

/**
 * An account on a paid plan may send; one on a free plan once its permanent storage is over
 * 100,000,000 bytes (the spec's rule for the Send button).
 */
export function planSendPolicy(storage: Pick<StorageService, 'allowanceOf'>, allowances: Pick<AllowanceService, 'planOf'>): SendPolicy {
  return {
    allowsSending: async (userId) =>
      !isFreePlan(await allowances.planOf(userId)) || (await storage.allowanceOf(userId, false)) > FREE_PLAN_SEND_STORAGE_THRESHOLD,
  };
}

/** A permanent upload's storage transaction that just became COMMITTED (ArweaveRelay). */
export interface CommittedUpload {
  id: string;
  kind: string;
  size: number;
  uploader_user_id: string;
}

export interface LedgerOptions {
  key: LedgerKey;
  /** TOKEN_REWARD_PER_MIB: millionths of a U per MiB stored; 0: no rewards. */
  rewardPerMiB: number;
  sendPolicy: SendPolicy;
  /** Where balance changes go to the affected users' sockets (R109). */
  bus?: Pick<LedgerBus, 'publish'>;
}

type Db = Kysely<Database>;
type Row = Selectable<LedgerEntriesTable>;

/** An entry before the chain places it: everything but seq, prev, createdAt (and a reward's signature). */
type Unplaced = Omit<LedgerEntry, 'seq' | 'prev' | 'createdAt' | 'signature'> & { signature: string | null };

export class LedgerService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly options: LedgerOptions,
  ) {}

  /** Loads the server's ledger key from `server_secrets`, creating it once (the first process wins). */
  static async loadKey(db: Db, clock: Clock): Promise<LedgerKey> {
    const read = async () => (await db.selectFrom('server_secrets').select('value').where('name', '=', LEDGER_KEY_SECRET).executeTakeFirst())?.value;
    let pkcs8 = await read();
    if (!pkcs8) {
      const { privateKey } = crypto.generateKeyPairSync('ed25519');
      const value = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
      await db
        .insertInto('server_secrets')
        .values({ name: LEDGER_KEY_SECRET, value, created_at: clock.now() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      pkcs8 = await read();
    }
    if (!pkcs8) throw new Error('The ledger key could not be stored');
    const privateKey = crypto.createPrivateKey({ key: Buffer.from(pkcs8, 'base64'), format: 'der', type: 'pkcs8' });
    // The raw key is the last 32 bytes of its SubjectPublicKeyInfo (RFC 8410).
    const publicKey = crypto.createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
    return { publicKey, sign: (payload) => crypto.sign(null, canonicalBytes(payload), privateKey).toString('base64url') };
  }

  async info(): Promise<LedgerInfo> {
    const head = await this.db.selectFrom('ledger_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirstOrThrow();
    return { serverKey: this.options.key.publicKey, headSeq: Number(head.seq), headHash: head.hash };
  }

  /** GET /utoken: the caller's balance, read with the head it is the replay of. */
  async balanceOf(user: Pick<User, 'id' | 'address'>): Promise<TokenBalance> {
    // The plan's word first (R110): the client disables Send with it, the transfer route still decides.
    const canSend = await this.options.sendPolicy.allowsSending(user.id);
    return this.db.transaction().execute(async (trx) => {
      const head = await trx.selectFrom('ledger_head').select('seq').where('id', '=', 1).executeTakeFirstOrThrow();
      return { address: user.address, balance: (await this.storedBalance(trx, user.address)).toString(), headSeq: Number(head.seq), canSend };
    });
  }

  /** The whole chain after `after`, oldest first (a client replays it, R106). */
  async entries(after: number, limit: number): Promise<LedgerEntryPage> {
    const rows = await this.db.selectFrom('ledger_entries').selectAll().where('seq', '>', after).orderBy('seq').limit(limit + 1).execute();
    const items = rows.slice(0, limit).map(toEntry);
    return { items, next: rows.length > limit ? items[items.length - 1]!.seq : null };
  }

  /** The entries to or from `address`, newest first, before `before`. */
  async entriesOf(address: string, before: number | undefined, limit: number): Promise<LedgerEntryPage> {
    let query = this.db
      .selectFrom('ledger_entries')
      .selectAll()
      .where((eb) => eb.or([eb('to_address', '=', address), eb('from_address', '=', address)]));
    if (before !== undefined) query = query.where('seq', '<', before);
    const rows = await query.orderBy('seq', 'desc').limit(limit + 1).execute();
    const items = rows.slice(0, limit).map(toEntry);
    return { items, next: rows.length > limit ? items[items.length - 1]!.seq : null };
  }

  /**
   * POST /utoken/transfers (R108): a transfer signed on the sender's device. Refused, changing
   * nothing: not the caller's own address and key (403), a signature that is not theirs (403
   * INVALID_SIGNATURE), a recipient with no account here (400), an id the ledger holds (409), a
   * plan that may not send or a balance under 0.0001 U (403 TOKEN_SEND_NOT_ALLOWED), more than
   * the balance (422 AMOUNT_EXCEEDS_BALANCE).
   */
  async transfer(user: User, request: TransferRequest): Promise<TransferResult> {
    if (request.from !== user.address || request.fromKey !== user.publicSigningKey) {
      throw new ApiError('FORBIDDEN', 'A transfer is sent from your own address, signed with your own key.');
    }
    if (!verifySignedPayload(user.publicSigningKey, transferSigningPayload(request), request.signature)) {
      throw new ApiError('INVALID_SIGNATURE', 'The transfer is not signed by your account key.');
    }
    if (request.to === request.from) throw new ApiError('BAD_REQUEST', 'You cannot send $U to your own address.');
    const recipient = await this.db.selectFrom('users').select('id').where('address', '=', request.to).executeTakeFirst();
    if (!recipient) throw new ApiError('BAD_REQUEST', 'No Cairn account has this address.');
    if (!(await this.options.sendPolicy.allowsSending(user.id))) {
      throw new ApiError('TOKEN_SEND_NOT_ALLOWED', 'Sending $U needs a paid plan or more than 100 MB of permanent storage.');
    }
    const unplaced: Unplaced = { id: request.id, kind: 'transfer', from: request.from, fromKey: request.fromKey, to: request.to, amount: request.amount, reason: null, signature: request.signature };
    let placed: { entry: LedgerEntry; balances: Map<string, bigint> };
    try {
      placed = await this.db.transaction().execute((trx) => this.append(trx, unplaced, (balances) => {
        // Checked under the head's lock, against the balance the entry would be placed after.
        if ((balances.get(request.from) ?? 0n) < SEND_MIN_BALANCE) {
          throw new ApiError('TOKEN_SEND_NOT_ALLOWED', 'Your balance is under 0.0001 U.');
        }
      }));
    } catch (error) {
      if (isUniqueViolation(error)) throw replayed(request.id);
      throw error;
    }
    this.announce([
      { userId: user.id, balance: (placed.balances.get(request.from) ?? 0n).toString(), headSeq: placed.entry.seq },
      { userId: recipient.id, balance: (placed.balances.get(request.to) ?? 0n).toString(), headSeq: placed.entry.seq },
    ]);
    return { entry: placed.entry, balance: (placed.balances.get(request.from) ?? 0n).toString() };
  }

  /** R120: a claim needs a paid invoice, a subscription or a storage top-up (someone who has paid the operator). */
  async mayClaim(userId: string): Promise<boolean> {
    const paid = await this.db.selectFrom('invoices').select('id').where('user_id', '=', userId).where('status', '=', 'paid').limit(1).executeTakeFirst();
    return paid !== undefined;
  }

  /** GET /claims: whether the caller may claim, and their claims, newest first. */
  async claimsOf(userId: string): Promise<ClaimList> {
    const rows = await this.db.selectFrom('claims').selectAll().where('user_id', '=', userId).orderBy('seq', 'desc').limit(100).execute();
    return { eligible: await this.mayClaim(userId), items: rows.map(toClaim) };
  }

  /**
   * POST /claims (R120): a claim signed on the claimant's device takes the amount out of their
   * balance as a 'claim' ledger entry (credited to nobody), and is recorded open for the operator to
   * pay out. Refused, changing nothing: no paid invoice (403 CLAIM_NOT_ALLOWED), not the caller's
   * own address and key (403), a signature that is not theirs over a claim (403 INVALID_SIGNATURE;
   * a signed transfer is not a claim), an address of a Cairn account (400), an id the ledger holds
   * (409), more than the balance (422 AMOUNT_EXCEEDS_BALANCE).
   */
  async claim(user: User, request: ClaimRequest): Promise<ClaimResult> {
    if (!(await this.mayClaim(user.id))) throw new ApiError('CLAIM_NOT_ALLOWED', CLAIM_TEXTS.notEligible);
    if (request.from !== user.address || request.fromKey !== user.publicSigningKey) {
      throw new ApiError('FORBIDDEN', 'A claim is made from your own address, signed with your own key.');
    }
    if (!verifySignedPayload(user.publicSigningKey, claimSigningPayload(request), request.signature)) {
      throw new ApiError('INVALID_SIGNATURE', 'The claim is not signed by your account key.');
    }
    // U claimed to a Cairn address would leave the ledger although its owner holds it here.
    const account = await this.db.selectFrom('users').select('id').where('address', '=', request.to).executeTakeFirst();
    if (account || request.to === request.from) throw new ApiError('BAD_REQUEST', CLAIM_TEXTS.cairnAddress);
    const unplaced: Unplaced = { id: request.id, kind: 'claim', from: request.from, fromKey: request.fromKey, to: request.to, amount: request.amount, reason: null, signature: request.signature };
    let placed: { entry: LedgerEntry; balances: Map<string, bigint> };
    try {
      placed = await this.db.transaction().execute(async (trx) => {
        const result = await this.append(trx, unplaced, () => undefined);
        await trx
          .insertInto('claims')
          .values({ id: request.id, user_id: user.id, seq: result.entry.seq, address: request.to, amount: request.amount, status: 'open', tx_id: null, created_at: result.entry.createdAt, settled_at: null })
          .execute();
        return result;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw replayed(request.id);
      throw error;
    }
    const balance = (placed.balances.get(request.from) ?? 0n).toString();
    this.announce([{ userId: user.id, balance, headSeq: placed.entry.seq }]);
    return {
      claim: { id: request.id, address: request.to, amount: request.amount, status: 'open', txId: null, createdAt: placed.entry.createdAt },
      entry: placed.entry,
      balance,
    };
  }

  /**
   * R107: credits the uploaders of permanent uploads that just became COMMITTED, in the relay's
   * own transaction (so a status is COMMITTED exactly when its reward is in the ledger); a
   * storage transaction already credited (its id is a reward's `reason`) is passed over. Answers
   * what to announce once that transaction has committed.
   */
  async creditRewards(trx: Db, committed: readonly CommittedUpload[]): Promise<() => void> {
    const deliveries: BalanceDelivery[] = [];
    for (const upload of committed) {
      if (upload.kind === 'history') continue;
      const amount = (BigInt(Math.max(0, Math.floor(Number(upload.size)))) * BigInt(this.options.rewardPerMiB)) / MIB;
      if (amount <= 0n) continue;
      const uploader = await trx.selectFrom('users').select('address').where('id', '=', upload.uploader_user_id).executeTakeFirst();
      // An account deleted since its upload: nobody to credit.
      if (!uploader) continue;
      const unplaced: Unplaced = { id: crypto.randomUUID(), kind: 'reward', from: null, fromKey: null, to: uploader.address, amount: amount.toString(), reason: upload.id, signature: null };
      const placed = await this.append(trx, unplaced, () => undefined, upload.id);
      if (!placed) continue;
      deliveries.push({ userId: upload.uploader_user_id, balance: (placed.balances.get(uploader.address) ?? 0n).toString(), headSeq: placed.entry.seq });
    }
    return () => this.announce(deliveries);
  }

  private announce(deliveries: readonly BalanceDelivery[]): void {
    for (const delivery of deliveries) this.options.bus?.publish(delivery);
  }

  /**
   * Places `unplaced` after the head (locked first), checks it with replayLedger from the stored
   * head and balances, and writes it. `check` sees the balances before the entry, under the lock.
   * With `rewardReason`, answers null when a reward for it is already in the ledger.
   */
  private async append(trx: Db, unplaced: Unplaced, check: (balances: ReadonlyMap<string, bigint>) => void): Promise<{ entry: LedgerEntry; balances: Map<string, bigint> }>;
  private async append(trx: Db, unplaced: Unplaced, check: (balances: ReadonlyMap<string, bigint>) => void, rewardReason: string): Promise<{ entry: LedgerEntry; balances: Map<string, bigint> } | null>;
  private async append(trx: Db, unplaced: Unplaced, check: (balances: ReadonlyMap<string, bigint>) => void, rewardReason?: string) {
    // The lock: PostgreSQL holds this row until the transaction ends; SQLite its write lock.
    await trx.updateTable('ledger_head').set((eb) => ({ seq: eb.ref('seq') })).where('id', '=', 1).execute();
    const head = await trx.selectFrom('ledger_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirstOrThrow();
    if (rewardReason !== undefined) {
      const credited = await trx.selectFrom('ledger_entries').select('seq').where('reason', '=', rewardReason).executeTakeFirst();
      if (credited) return null;
    } else {
      const known = await trx.selectFrom('ledger_entries').select('seq').where('id', '=', unplaced.id).executeTakeFirst();
      if (known) throw replayed(unplaced.id);
    }
    const addresses = [...new Set([unplaced.to, ...(unplaced.from ? [unplaced.from] : [])])];
    const before = new Map<string, bigint>();
    for (const address of addresses) before.set(address, await this.storedBalance(trx, address));
    check(before);
    const seq = Number(head.seq) + 1;
    const placed = { ...unplaced, seq, prev: head.hash, createdAt: this.clock.now() };
    const entry: LedgerEntry = { ...placed, signature: placed.signature ?? this.options.key.sign(rewardSigningPayload(placed)) };
    const replay = await replayLedger([entry], { serverKey: this.options.key.publicKey, from: { seq: Number(head.seq), hash: head.hash, balances: before } });
    if (replay.bad) throw refusal(replay.bad.fault);
    await trx
      .insertInto('ledger_entries')
      .values({
        seq,
        id: entry.id,
        kind: entry.kind,
        from_address: entry.from,
        from_key: entry.fromKey,
        to_address: entry.to,
        amount: entry.amount,
        reason: entry.reason,
        prev: entry.prev,
        hash: replay.headHash,
        signature: entry.signature,
        created_at: entry.createdAt,
      })
      .execute();
    for (const address of addresses) {
      const balance = (replay.balances.get(address) ?? 0n).toString();
      await trx
        .insertInto('ledger_balances')
        .values({ address, balance })
        .onConflict((oc) => oc.column('address').doUpdateSet({ balance }))
        .execute();
    }
    await trx.updateTable('ledger_head').set({ seq, hash: replay.headHash }).where('id', '=', 1).execute();
    return { entry, balances: replay.balances };
  }

  private async storedBalance(db: Db, address: string): Promise<bigint> {
    const row = await db.selectFrom('ledger_balances').select('balance').where('address', '=', address).executeTakeFirst();
    return row ? BigInt(row.balance) : 0n;
  }
}

function replayed(id: string): ApiError {
  return new ApiError('CONFLICT', `The ledger already holds an entry with the id ${id}: a transfer is recorded once.`);
}

/** A fault replayLedger found in an entry the server was about to append. */
function refusal(fault: LedgerFault): ApiError {
  switch (fault) {
    case 'overdraw':
      return new ApiError('AMOUNT_EXCEEDS_BALANCE', LEDGER_TEXTS.overBalance);
    case 'signature':
    case 'sender':
      return new ApiError('INVALID_SIGNATURE', 'The transfer is not signed by the key of its sender.');
    case 'duplicate-id':
    case 'duplicate-reason':
      return new ApiError('CONFLICT', 'The ledger already holds this entry.');
    default:
      // seq, chain, malformed: the server placed it itself, so this is a defect, not bad input.
      return new ApiError('INTERNAL', `The ledger refused its own entry (${fault}).`);
  }
}

function toClaim(row: Selectable<Database['claims']>): Claim {
  return {
    id: row.id,
    address: row.address,
    amount: row.amount,
    status: row.status === 'settled' ? 'settled' : 'open',
    txId: row.tx_id,
    createdAt: Number(row.created_at),
  };
}

function toEntry(row: Row): LedgerEntry {
  return {
    seq: Number(row.seq),
    id: row.id,
    kind: row.kind === 'reward' || row.kind === 'claim' ? row.kind : 'transfer',
    from: row.from_address,
    fromKey: row.from_key,
    to: row.to_address,
    amount: row.amount,
    reason: row.reason,
    prev: row.prev,
    createdAt: Number(row.created_at),
    signature: row.signature,
  };
}
