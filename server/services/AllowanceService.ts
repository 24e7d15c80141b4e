/**
 * What each account may use, computed by the server from its plan (issue 21; SYNC_SPEC R100):
 * storage allowances and the vault and member limits. The one place that answers "how much may
 * this account have": StorageService, the vault.create check and the member checks all ask it.
 *
 * Storage is the plan's figure plus extras, unless the operator gave the account its own
 * allowance (`npm run admin -- allowance`, migration 0012), which replaces both. Extras are the
 * paid storage top-ups (SYNC_SPEC R119) and referral rewards (R133), both in `extrasOf`, so every
 * reader gets them at once.
 */
import { ApiError } from '../../src/protocol/errors';
import { featureNotInPlanText, type PlanFeature, planHasFeature } from '../../src/protocol/features';
import { TOPUP_BYTES_PER_GB } from '../../src/protocol/billing';
import { REFERRAL_LIMITS } from '../../src/protocol/referrals';
import { referralRewardsOf } from './ReferralService';
import { defaultPlanOf, type Plan, type PlanCatalog, type PlansResponse } from '../../src/protocol/plans';
import type { Db } from './vaultRows';

export interface Allowance {
  cloud: number;
  permanent: number;
}

export interface PlanLimits {
  /** Most vaults the account owns, deleted ones left out; null: no limit. */
  vaults: number | null;
  /** Most live members (owner and open invitations included) per vault it owns; null: no limit. */
  members: number | null;
  /** Most GB of storage top-ups, open and paid, both kinds; null or absent: no top-ups (R118). */
  topup_gb?: number | null | undefined;
}

/**
 * `catalog` with its default plan's figures replaced by the server's settings (CLOUD_STORAGE_BYTES,
 * PERMANENT_STORAGE_BYTES, MEMBER_LIMIT: Config.storageAllowances and Config.memberLimit, which
 * loadConfig fills from the plan itself where they are unset).
 */
export function withDefaultPlanFigures(catalog: PlanCatalog, storage: Allowance, memberLimit: number | null): PlanCatalog {
  const fallback = defaultPlanOf(catalog);
  return {
    ...catalog,
    plans: catalog.plans.map((plan) =>
      plan.id === fallback.id
        ? { ...plan, storage: { cloud_bytes: storage.cloud, permanent_bytes: storage.permanent }, limits: { ...plan.limits, members: memberLimit } }
        : plan,
    ),
  };
}

export class AllowanceService {
  private readonly byId: Map<string, Plan>;
  private readonly fallback: Plan;

  constructor(
    private readonly db: Db,
    readonly catalog: PlanCatalog,
  ) {
    this.byId = new Map(catalog.plans.map((plan) => [plan.id, plan]));
    this.fallback = defaultPlanOf(catalog);
  }

  /** The plan with this id, or null when the plans file has none. */
  findPlan(planId: string): Plan | null {
    return this.byId.get(planId) ?? null;
  }

  /**
   * Whose plan and storage an account uses (R126): an organisation's people other than its
   * creator use the creator's; everyone else their own.
   */
  async holderOf(userId: string, db: Db = this.db): Promise<string> {
    const row = await db
      .selectFrom('organisation_members as om')
      .innerJoin('organisations as o', 'o.id', 'om.organisation_id')
      .select('o.owner_user_id')
      .where('om.user_id', '=', userId)
      .executeTakeFirst();
    return row?.owner_user_id ?? userId;
  }

  /**
   * The accounts whose use counts against one allowance with `userId`'s (R126): everyone of its
   * organisation, the creator included, or the account alone.
   */
  async poolOf(userId: string, db: Db = this.db): Promise<string[]> {
    const rows = await db
      .selectFrom('organisation_members as mine')
      .innerJoin('organisation_members as all', 'all.organisation_id', 'mine.organisation_id')
      .select('all.user_id')
      .where('mine.user_id', '=', userId)
      .execute();
    return rows.length > 0 ? rows.map((row) => row.user_id) : [userId];
  }

  /** The account's plan (its organisation's, R126); the default one when it has none or its plan left the file. Read through `db` (a transaction when checking). */
  async planOf(userId: string, db: Db = this.db): Promise<Plan> {
    const holder = await this.holderOf(userId, db);
    const row = await db.selectFrom('users').select('plan_id').where('id', '=', holder).executeTakeFirst();
    return (row?.plan_id ? this.byId.get(row.plan_id) : undefined) ?? this.fallback;
  }

  /** Bytes of cloud and permanent storage the account may use: its organisation's plan's for an invitee (R126). */
  async allowanceOf(userId: string, db: Db = this.db): Promise<Allowance> {
    const holder = await this.holderOf(userId, db);
    const row = await db
      .selectFrom('users')
      .select(['plan_id', 'cloud_allowance', 'permanent_allowance'])
      .where('id', '=', holder)
      .executeTakeFirst();
    const plan = (row?.plan_id ? this.byId.get(row.plan_id) : undefined) ?? this.fallback;
    const extras = await this.extrasOf(holder, db);
    const own = (set: number | null | undefined, planned: number, extra: number) => (set === null || set === undefined ? planned + extra : Number(set));
    return {
      cloud: own(row?.cloud_allowance, plan.storage.cloud_bytes, extras.cloud),
      permanent: own(row?.permanent_allowance, plan.storage.permanent_bytes, extras.permanent),
    };
  }

  /** R122: whether the account's plan has a feature the plans file may gate. */
  async hasFeature(userId: string, feature: PlanFeature, db: Db = this.db): Promise<boolean> {
    return planHasFeature(this.catalog, await this.planOf(userId, db), feature);
  }

  /** R122: refuses (403 FEATURE_NOT_IN_PLAN, naming the plan) when the account's plan lacks a feature the plans file gates. */
  async assertFeature(userId: string, feature: PlanFeature, db: Db = this.db): Promise<void> {
    const plan = await this.planOf(userId, db);
    if (!planHasFeature(this.catalog, plan, feature)) throw new ApiError('FEATURE_NOT_IN_PLAN', featureNotInPlanText(feature, plan.name));
  }

  async limitsOf(userId: string, db: Db = this.db): Promise<PlanLimits> {
    return (await this.planOf(userId, db)).limits;
  }

  /**
   * The pricing page's plans (SYNC_SPEC R111): the catalog this service enforces, so the figures a
   * user reads are the ones checked, with the account's own plan flagged.
   */
  async plansFor(userId: string): Promise<PlansResponse> {
    const current = await this.planOf(userId);
    return {
      subscriptionPlans: this.catalog.plans.map((plan) => ({ ...plan, active_subscription: plan.id === current.id })),
      currentPlanId: current.id,
      defaultPlanId: this.fallback.id,
      sunsetNotice: this.catalog.sunset_notice,
    };
  }

  /**
   * Storage bought or earned beyond the plan (SYNC_SPEC R119): the GB of the account's PAID top-up
   * invoices of each kind, at 10^9 bytes a GB. Summed from the invoices each time rather than kept
   * as a counter, so it can never drift from what was paid; referral rewards (R133) likewise.
   */
  private async extrasOf(userId: string, db: Db): Promise<Allowance> {
    const rows = await db
      .selectFrom('invoices')
      .select((eb) => ['topup_storage', eb.fn.sum<string | number>('topup_gb').as('gb')])
      .where('user_id', '=', userId)
      .where('kind', '=', 'topup')
      .where('status', '=', 'paid')
      .groupBy('topup_storage')
      .execute();
    const bytesOf = (storage: string) => Number(rows.find((row) => row.topup_storage === storage)?.gb ?? 0) * TOPUP_BYTES_PER_GB;
    // Referral rewards (R133): 100 MB of permanent storage each, counted from their rows like top-ups.
    const rewards = await referralRewardsOf(db, userId);
    return { cloud: bytesOf('cloud'), permanent: bytesOf('permanent') + rewards * REFERRAL_LIMITS.REWARD_BYTES };
  }
}
