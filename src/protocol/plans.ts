/**
 * Plans (spec 002 section 3, Subscription plan; issue 21): the operator's plans file, in the
 * spec's shape. Each plan has its price per currency (lowercase `eur`, `usd`, `gbp`) as tiers in
 * minor units, `metadata.app_features` (a semicolon list the UI and server gate features by) and
 * `metadata.cloud_gb`, and, beyond what the spec shows, what Cairn enforces: the storage it gives
 * and its vault and member limits (SYNC_SPEC R100-R102). The server reads the file once at start
 * (PLANS_FILE); docs/plans.example.json is a complete example.
 */
import { z } from 'zod';
import { VAULT_LIMITS } from './vaults';

/** The currencies a plan is priced in (spec 002 section 3); keys of `currency_options`. */
export const PLAN_CURRENCIES = ['eur', 'usd', 'gbp'] as const;
export type PlanCurrency = (typeof PLAN_CURRENCIES)[number];

/** One price tier, as the spec's payment provider writes it: amounts in minor units (cents). */
export const PlanTier = z
  .object({
    /** Minor units charged per period whatever the quantity; 0 on a free plan (spec 002 section 6). */
    flat_amount: z.number().int().min(0),
    /** Minor units per unit of quantity, as a decimal string (the provider's format); null: none. */
    unit_amount_decimal: z.string().regex(/^\d{1,12}(\.\d{1,12})?$/, 'expected a decimal number such as "0" or "499.5"').nullable(),
    /** The quantity this tier runs to; null or left out: no end. */
    up_to: z.number().int().min(1).nullable().optional(),
  })
  .strict();
export type PlanTier = z.infer<typeof PlanTier>;

const CurrencyOption = z.object({ tiers: z.array(PlanTier).min(1) }).strict();

/** A semicolon list as the spec stores it ('vaults;members'): entries of letters, digits, _ . -. */
const SemicolonList = z.string().max(2_000).regex(/^([A-Za-z0-9_.-]+(;[A-Za-z0-9_.-]+)*)?$/, 'expected entries joined by ";"');

/** An optional limit: a whole number from 1, or null for none. */
const Limit = z.number().int().min(1).max(1_000_000).nullable();

export const Plan = z
  .object({
    /** Stable id: kept on each account (users.plan_id) and given to `npm run admin -- plan`. */
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'expected lower-case letters, digits, _ and - (at most 64)'),
    /** Shown to users ('Pebble'). */
    name: z.string().trim().min(1).max(60),
    price: z.object({ currency_options: z.object({ eur: CurrencyOption, usd: CurrencyOption, gbp: CurrencyOption }).strict() }).strict(),
    metadata: z.object({ app_features: SemicolonList, cloud_gb: SemicolonList.optional() }).strict(),
    /** Bytes of each kind of storage an account on this plan may use (before top-ups and rewards). */
    storage: z.object({ permanent_bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), cloud_bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }).strict(),
    /**
     * Most vaults an account owns (deleted ones do not count) and most members per vault it owns; null: no limit.
     * `topup_gb` (SYNC_SPEC R118): most GB of storage top-ups, permanent and cloud together, open and paid, an
     * account on this plan may buy; null or left out: no top-ups on this plan.
     */
    limits: z.object({ vaults: Limit, members: Limit, topup_gb: Limit.optional() }).strict(),
  })
  .strict();
export type Plan = z.infer<typeof Plan>;

/** Free: every tier's flat amount is 0 in every currency (spec 002 section 6: 'Free plan = tier flat amount 0'). */
export function isFreePlan(plan: Plan): boolean {
  return PLAN_CURRENCIES.every((currency) => plan.price.currency_options[currency].tiers.every((tier) => tier.flat_amount === 0 && Number(tier.unit_amount_decimal ?? 0) === 0));
}

/** Spec 002 section 5: 'Coupon Apply appears at 3 or more characters'; section 9: 'Coupon minimum 3 characters'. */
export const COUPON_MIN_LENGTH = 3;

/**
 * An operator's coupon in the plans file (`coupons`, optional): a code, either a percentage off or
 * an amount off per currency in minor units, and optionally the plans it applies to (none: all
 * paid plans). Codes compare without regard to case.
 */
export const Coupon = z
  .object({
    code: z.string().trim().min(COUPON_MIN_LENGTH).max(40).regex(/^[A-Za-z0-9_-]+$/, 'expected letters, digits, _ and -'),
    percent_off: z.number().int().min(1).max(100).optional(),
    amount_off: z.object({ eur: z.number().int().min(1), usd: z.number().int().min(1), gbp: z.number().int().min(1) }).partial().strict().optional(),
    plans: z.array(z.string()).min(1).optional(),
  })
  .strict()
  .refine((coupon) => (coupon.percent_off === undefined) !== (coupon.amount_off === undefined), { message: 'a coupon has either percent_off or amount_off' });
export type Coupon = z.infer<typeof Coupon>;

/** A top-up price per GB in each currency, in minor units (SYNC_SPEC R118). */
const TopUpPrice = z.object({ eur: z.number().int().min(1), usd: z.number().int().min(1), gbp: z.number().int().min(1) }).strict();

/** The operator's storage top-up prices per GB of each kind (`topup_prices`, optional: none, no top-ups). */
export const TopUpPrices = z.object({ permanent_gb: TopUpPrice, cloud_gb: TopUpPrice }).strict();
export type TopUpPrices = z.infer<typeof TopUpPrices>;

/** The plans file. */
export const PlanCatalog = z
  .object({
    /** The plan of every account the operator has not moved to another (new accounts included). */
    default_plan: z.string(),
    plans: z.array(Plan).min(1).max(100),
    /** The pricing page's sunset notice ('upgrades are no longer possible'); false turns it off. */
    sunset_notice: z.boolean().default(true),
    /** The operator's discount codes for checkout (issue 21, SYNC_SPEC R113); optional, so older files still load. */
    coupons: z.array(Coupon).max(1_000).optional(),
    /** Storage top-up prices (issue 21, SYNC_SPEC R118); optional, so older files still load (and sell none). */
    topup_prices: TopUpPrices.optional(),
  })
  .strict()
  .superRefine((catalog, ctx) => {
    const seen = new Set<string>();
    for (const [i, plan] of catalog.plans.entries()) {
      if (seen.has(plan.id)) ctx.addIssue({ code: 'custom', path: ['plans', i, 'id'], message: `plan id "${plan.id}" is used twice` });
      seen.add(plan.id);
    }
    const fallback = catalog.plans.find((plan) => plan.id === catalog.default_plan);
    if (!fallback) ctx.addIssue({ code: 'custom', path: ['default_plan'], message: `no plan has the id "${catalog.default_plan}"` });
    // Every account is on it without paying, so it must cost nothing.
    else if (!isFreePlan(fallback)) ctx.addIssue({ code: 'custom', path: ['default_plan'], message: `the default plan "${fallback.id}" must be free (every tier's amounts 0)` });
  });
export type PlanCatalog = z.infer<typeof PlanCatalog>;

const FREE_PRICE = { tiers: [{ flat_amount: 0, unit_amount_decimal: '0' }] };

/**
 * The plans with no PLANS_FILE: the spec's one free plan, Pebble (spec 002: 100 MB permanent and
 * 1 GB cloud; no vault or member limit is shown, so none).
 */
export const DEFAULT_PLAN_CATALOG: PlanCatalog = {
  default_plan: 'pebble',
  plans: [
    {
      id: 'pebble',
      name: 'Pebble',
      price: { currency_options: { eur: FREE_PRICE, usd: FREE_PRICE, gbp: FREE_PRICE } },
      metadata: { app_features: '', cloud_gb: '1' },
      storage: { permanent_bytes: VAULT_LIMITS.FREE_PERMANENT_BYTES, cloud_bytes: VAULT_LIMITS.FREE_CLOUD_BYTES },
      limits: { vaults: null, members: null },
    },
  ],
  sunset_notice: true,
};

/** The catalog's default plan (PlanCatalog's refinement guarantees it exists). */
export function defaultPlanOf(catalog: PlanCatalog): Plan {
  return catalog.plans.find((plan) => plan.id === catalog.default_plan) ?? catalog.plans[0]!;
}

/** A plan as GET /api/plans gives it: the file's plan and the spec's `active_subscription` flag (the caller's plan). */
export const SubscriptionPlan = Plan.extend({ active_subscription: z.boolean() });
export type SubscriptionPlan = z.infer<typeof SubscriptionPlan>;

/**
 * GET /api/plans (SYNC_SPEC R111; spec 002 section 7, `GET /subscription-plans`): the operator's
 * plans in the spec's shape, with every figure the server enforces (the default plan's storage and
 * member limit after CLOUD_STORAGE_BYTES, PERMANENT_STORAGE_BYTES and MEMBER_LIMIT), the caller's
 * current plan, and whether the pricing page shows the sunset notice. All three currencies come at
 * once: switching currency is the page's, not another request.
 */
export const PlansResponse = z
  .object({
    subscriptionPlans: z.array(SubscriptionPlan).min(1),
    /** The caller's plan (the default plan when the account has none or its plan left the file). */
    currentPlanId: z.string(),
    /** The plan every account is on unless the operator moved it. */
    defaultPlanId: z.string(),
    sunsetNotice: z.boolean(),
  })
  .strict();
export type PlansResponse = z.infer<typeof PlansResponse>;
