/**
 * The operator's actions behind `npm run admin` (issue 20): find users, disable and re-enable an
 * account, reset its two-factor, set its storage allowances, read and close support reports, and
 * read the permanent relay's queue. Works on the database directly, so it needs no running server
 * and no admin account on the web (docs/decisions.md, "The admin is a command").
 *
 * Every change is written to `admin_actions` in the same transaction as the change itself and
 * logged as one structured line; a refused action (unknown e-mail, bad number) changes nothing.
 */
import type { Kysely } from 'kysely';
import { FINAL_STORAGE_TX_STATUSES } from '../../src/protocol/arweave';
import { ApiError } from '../../src/protocol/errors';
import { DEFAULT_PLAN_CATALOG, defaultPlanOf, type PlanCatalog } from '../../src/protocol/plans';
import type { Database } from '../db/Database';
import { fromDbBool, toDbBool } from '../db/dbBool';
import type { Clock } from '../services/Clock';
import { randomId } from '../services/tokens';
import { markInvoicePaid } from '../services/BillingService';
import { NO_TWO_FACTOR } from '../services/UserService';

/** Where an admin action's structured line goes (the command: JSON on stderr; tests: a capture). */
export interface AdminLog {
  info(fields: Record<string, unknown>, message: string): void;
}

export interface AdminUser {
  id: string;
  email: string;
  name: string | null;
  emailVerified: boolean;
  disabled: boolean;
  mfaType: string | null;
  /** The account's own allowances in bytes; null: the server's setting. */
  cloudAllowance: number | null;
  permanentAllowance: number | null;
  /** The account's plan id (the default plan's when it has none of its own or its plan left the file). */
  plan: string;
  createdAt: number;
}

export interface AdminReport {
  id: string;
  userEmail: string | null;
  action: string | null;
  error: string | null;
  path: string | null;
  createdAt: number;
  closedAt: number | null;
}

export interface AdminInvoice {
  number: string;
  userEmail: string;
  kind: string;
  planId: string;
  currency: string;
  total: number;
  status: string;
  createdAt: number;
  paidAt: number | null;
}

export interface RelayStatus {
  /** Storage transactions (file versions and history runs) by status. */
  byStatus: Record<string, number>;
  /** The oldest transaction still on its way to the network (not COMMITTED, REGISTERED, REJECTED or BLOCKED). */
  oldestPending: { id: string; status: string; createdAt: number; attempts: number } | null;
}

export interface AdminClaim {
  id: string;
  userEmail: string | null;
  address: string;
  /** Millionths of a U, decimal text. */
  amount: string;
  status: string;
  txId: string | null;
  createdAt: number;
  settledAt: number | null;
}

/** An Arweave transaction id: 43 base64url characters. */
const ARWEAVE_TX_ID = /^[A-Za-z0-9_-]{43}$/;

/** Statuses a storage transaction leaves the relay's queue in. */
const SETTLED = [...FINAL_STORAGE_TX_STATUSES];

/** How many users `users` lists at most. */
export const USER_LIST_LIMIT = 200;

export class AdminService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly log: AdminLog,
    /** Who runs the command (the operating system user), kept with every action. */
    private readonly actor: string,
    /** The server's plans (PLANS_FILE), which `plan` chooses from. */
    private readonly plans: PlanCatalog = DEFAULT_PLAN_CATALOG,
  ) {}

  /** Accounts with a password (not airdrop guests), newest first; `find` matches e-mail or name. */
  async users(find?: string): Promise<AdminUser[]> {
    let query = this.db.selectFrom('users').selectAll().where('passwordless', '=', toDbBool(false));
    if (find) {
      const pattern = `%${find.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([eb(eb.fn('lower', ['email']), 'like', pattern), eb(eb.fn('lower', [eb.fn.coalesce('name', eb.val(''))]), 'like', pattern)]),
      );
    }
    const rows = await query.orderBy('created_at', 'desc').limit(USER_LIST_LIMIT).execute();
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      name: row.name,
      emailVerified: fromDbBool(row.email_verified),
      disabled: row.disabled_at !== null && row.disabled_at !== undefined,
      mfaType: row.mfa_type,
      cloudAllowance: row.cloud_allowance === null || row.cloud_allowance === undefined ? null : Number(row.cloud_allowance),
      permanentAllowance: row.permanent_allowance === null || row.permanent_allowance === undefined ? null : Number(row.permanent_allowance),
      plan: this.plans.plans.some((plan) => plan.id === row.plan_id) ? row.plan_id! : defaultPlanOf(this.plans).id,
      createdAt: Number(row.created_at),
    }));
  }

  /** Disables the account and ends every session it has: it cannot log in until `enable`. */
  async disable(email: string): Promise<{ sessionsEnded: number }> {
    return this.act('disable', email, null, async (trx, userId) => {
      await trx.updateTable('users').set({ disabled_at: this.clock.now() }).where('id', '=', userId).execute();
      const ended = await trx.deleteFrom('sessions').where('user_id', '=', userId).returning('token_hash').execute();
      // A login half done (a two-factor challenge sent) must not finish either.
      await trx.deleteFrom('mfa_challenges').where('user_id', '=', userId).execute();
      return { sessionsEnded: ended.length };
    });
  }

  async enable(email: string): Promise<void> {
    await this.act('enable', email, null, async (trx, userId) => {
      await trx.updateTable('users').set({ disabled_at: null }).where('id', '=', userId).execute();
    });
  }

  /** Turns two-factor off (authenticator or SMS): the user logs in with the password alone. */
  async resetTwoFactor(email: string): Promise<void> {
    await this.act('reset-2fa', email, null, async (trx, userId) => {
      await trx
        .updateTable('users')
        .set({ ...NO_TWO_FACTOR, updated_at: this.clock.now() })
        .where('id', '=', userId)
        .execute();
      await trx.deleteFrom('mfa_challenges').where('user_id', '=', userId).execute();
    });
  }

  /** Sets the account's own allowances (bytes); a kind left undefined keeps its value, null: back to the server's setting. */
  async setAllowance(email: string, allowance: { cloud?: number | null; permanent?: number | null }): Promise<void> {
    for (const [kind, bytes] of Object.entries(allowance)) {
      if (bytes !== null && bytes !== undefined && (!Number.isSafeInteger(bytes) || bytes < 0)) {
        throw new ApiError('VALIDATION_FAILED', `The ${kind} allowance must be a whole number of bytes, 0 or more`);
      }
    }
    if (allowance.cloud === undefined && allowance.permanent === undefined) {
      throw new ApiError('VALIDATION_FAILED', 'Give --cloud BYTES, --permanent BYTES or both');
    }
    await this.act('allowance', email, allowance, async (trx, userId) => {
      await trx
        .updateTable('users')
        .set({
          ...(allowance.cloud !== undefined ? { cloud_allowance: allowance.cloud } : {}),
          ...(allowance.permanent !== undefined ? { permanent_allowance: allowance.permanent } : {}),
        })
        .where('id', '=', userId)
        .execute();
    });
  }

  /**
   * Moves the account to a plan of the plans file (`default`: back to the default plan): its
   * allowances and limits follow at once (SYNC_SPEC R100). Vaults and members it already has stay
   * when the new plan allows fewer; it cannot add more until under the limit again (R101, R102).
   */
  async setPlan(email: string, planId: string): Promise<{ planId: string; name: string }> {
    const plan = planId === 'default' ? defaultPlanOf(this.plans) : this.plans.plans.find((p) => p.id === planId);
    if (!plan) throw new ApiError('VALIDATION_FAILED', `No plan "${planId}" in the plans file (plans: ${this.plans.plans.map((p) => p.id).join(', ')})`);
    // The default plan is stored as null, so a later plans file's default applies to these accounts too.
    const stored = planId === 'default' ? null : plan.id;
    await this.act('plan', email, { plan: stored ?? 'default' }, async (trx, userId) => {
      await trx.updateTable('users').set({ plan_id: stored }).where('id', '=', userId).execute();
    });
    return { planId: plan.id, name: plan.name };
  }

  /** Invoices (subscriptions and top-ups), newest first; `open` leaves out the paid ones. */
  async invoices(options: { open?: boolean } = {}): Promise<AdminInvoice[]> {
    let query = this.db
      .selectFrom('invoices')
      .innerJoin('users', 'users.id', 'invoices.user_id')
      .select([
        'invoices.number',
        'users.email',
        'invoices.kind',
        'invoices.plan_id',
        'invoices.currency',
        'invoices.total',
        'invoices.status',
        'invoices.created_at',
        'invoices.paid_at',
      ]);
    if (options.open) query = query.where('invoices.status', '=', 'open');
    const rows = await query.orderBy('invoices.created_at', 'desc').orderBy('invoices.number', 'desc').limit(USER_LIST_LIMIT).execute();
    return rows.map((row) => ({
      number: row.number,
      userEmail: row.email,
      kind: row.kind,
      planId: row.plan_id,
      currency: row.currency,
      total: Number(row.total),
      status: row.status,
      createdAt: Number(row.created_at),
      paidAt: row.paid_at === null || row.paid_at === undefined ? null : Number(row.paid_at),
    }));
  }

  /**
   * The payment of invoice `number` arrived (SYNC_SPEC R115): marks it paid and, for a
   * subscription, moves the account to its plan, recorded in the same transaction. Unknown or
   * already paid is refused and changes nothing.
   */
  async invoicePaid(number: string): Promise<{ number: string; email: string; kind: 'subscription' | 'topup'; planId: string | null }> {
    const result = await this.db.transaction().execute(async (trx) => {
      const paid = await markInvoicePaid(trx, number, this.clock.now());
      const user = await trx.selectFrom('users').select('email').where('id', '=', paid.userId).executeTakeFirstOrThrow();
      await this.record(trx, 'invoice-paid', paid.number, { user: user.email, kind: paid.kind, ...(paid.planId ? { plan: paid.planId } : {}) });
      return { number: paid.number, email: user.email, kind: paid.kind, planId: paid.planId };
    });
    this.logAction('invoice-paid', result.number, { user: result.email, kind: result.kind, ...(result.planId ? { plan: result.planId } : {}) });
    return result;
  }

  /** Support reports, newest first; `open` leaves out the closed ones. */
  async reports(options: { open?: boolean } = {}): Promise<AdminReport[]> {
    let query = this.db
      .selectFrom('support_reports')
      .leftJoin('users', 'users.id', 'support_reports.user_id')
      .select([
        'support_reports.id',
        'users.email',
        'support_reports.action',
        'support_reports.error',
        'support_reports.path',
        'support_reports.created_at',
        'support_reports.closed_at',
      ]);
    if (options.open) query = query.where('support_reports.closed_at', 'is', null);
    const rows = await query.orderBy('support_reports.created_at', 'desc').limit(USER_LIST_LIMIT).execute();
    return rows.map((row) => ({
      id: row.id,
      userEmail: row.email ?? null,
      action: row.action,
      error: row.error,
      path: row.path,
      createdAt: Number(row.created_at),
      closedAt: row.closed_at === null || row.closed_at === undefined ? null : Number(row.closed_at),
    }));
  }

  async closeReport(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const report = await trx.selectFrom('support_reports').select(['id', 'closed_at']).where('id', '=', id).executeTakeFirst();
      if (!report) throw new ApiError('NOT_FOUND', `No support report ${id}`);
      if (report.closed_at !== null && report.closed_at !== undefined) throw new ApiError('CONFLICT', `Support report ${id} is already closed`);
      await trx.updateTable('support_reports').set({ closed_at: this.clock.now() }).where('id', '=', id).execute();
      await this.record(trx, 'close-report', id, null);
    });
    this.logAction('close-report', id, null);
  }

  /** The permanent relay's queue: storage transactions by status and the oldest not yet settled. */
  async relay(): Promise<RelayStatus> {
    const counts = await this.db
      .selectFrom('storage_transactions')
      .select((eb) => ['status', eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .execute();
    const oldest = await this.db
      .selectFrom('storage_transactions')
      .select(['id', 'status', 'created_at', 'attempts'])
      .where('status', 'not in', SETTLED)
      .orderBy('created_at', 'asc')
      .limit(1)
      .executeTakeFirst();
    return {
      byStatus: Object.fromEntries(counts.map((row) => [row.status, Number(row.count)])),
      oldestPending: oldest ? { id: oldest.id, status: oldest.status, createdAt: Number(oldest.created_at), attempts: Number(oldest.attempts) } : null,
    };
  }

  /** Claims of $U to outside addresses (SYNC_SPEC R120), oldest first (the order to pay them out); `open`: not yet settled. */
  async claims(options: { open?: boolean } = {}): Promise<AdminClaim[]> {
    let query = this.db
      .selectFrom('claims')
      .leftJoin('users', 'users.id', 'claims.user_id')
      .select(['claims.id', 'users.email', 'claims.address', 'claims.amount', 'claims.status', 'claims.tx_id', 'claims.created_at', 'claims.settled_at']);
    if (options.open) query = query.where('claims.status', '=', 'open');
    const rows = await query.orderBy('claims.seq', 'asc').limit(USER_LIST_LIMIT).execute();
    return rows.map((row) => ({
      id: row.id,
      userEmail: row.email ?? null,
      address: row.address,
      amount: row.amount,
      status: row.status,
      txId: row.tx_id,
      createdAt: Number(row.created_at),
      settledAt: row.settled_at === null || row.settled_at === undefined ? null : Number(row.settled_at),
    }));
  }

  /**
   * Records that an open claim was paid out on the network in transaction `txId`. The ledger is not
   * touched: the claim's entry took the amount out when it was made.
   */
  async settleClaim(id: string, txId: string): Promise<void> {
    if (!ARWEAVE_TX_ID.test(txId)) throw new ApiError('VALIDATION_FAILED', `"${txId}" is not an Arweave transaction id (43 characters of A-Z, a-z, 0-9, - and _)`);
    await this.db.transaction().execute(async (trx) => {
      const claim = await trx.selectFrom('claims').select(['id', 'status']).where('id', '=', id).executeTakeFirst();
      if (!claim) throw new ApiError('NOT_FOUND', `No claim ${id}`);
      if (claim.status !== 'open') throw new ApiError('CONFLICT', `Claim ${id} is already settled`);
      await trx.updateTable('claims').set({ status: 'settled', tx_id: txId, settled_at: this.clock.now() }).where('id', '=', id).execute();
      await this.record(trx, 'claim-settled', id, { txId });
    });
    this.logAction('claim-settled', id, { txId });
  }

  /** The actions taken so far, newest first. */
  async actions(): Promise<{ actor: string; action: string; target: string; details: unknown; createdAt: number }[]> {
    const rows = await this.db.selectFrom('admin_actions').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
    return rows.map((row) => ({
      actor: row.actor,
      action: row.action,
      target: row.target,
      details: row.details === null ? null : JSON.parse(row.details),
      createdAt: Number(row.created_at),
    }));
  }

  /** Runs `change` on the account with `email` and records it, all in one transaction. */
  private async act<T>(action: string, email: string, details: unknown, change: (trx: Kysely<Database>, userId: string) => Promise<T>): Promise<T> {
    const target = email.trim().toLowerCase();
    const result = await this.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('users').select('id').where('email', '=', target).where('passwordless', '=', toDbBool(false)).executeTakeFirst();
      if (!user) throw new ApiError('USER_NOT_FOUND', `No account with the e-mail ${target}`);
      const value = await change(trx, user.id);
      await this.record(trx, action, target, details);
      return value;
    });
    this.logAction(action, target, details);
    return result;
  }

  private async record(trx: Kysely<Database>, action: string, target: string, details: unknown): Promise<void> {
    await trx
      .insertInto('admin_actions')
      .values({
        id: randomId(),
        actor: this.actor,
        action,
        target,
        details: details === null ? null : JSON.stringify(details),
        created_at: this.clock.now(),
      })
      .execute();
  }

  private logAction(action: string, target: string, details: unknown): void {
    this.log.info({ adminAction: action, actor: this.actor, target, ...(details === null ? {} : { details }) }, `admin: ${action} ${target}`);
  }
}
