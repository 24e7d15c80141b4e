/**
 * What the pricing page shows of a plan (spec 002 sections 3 and 9): its price in a currency, with
 * the spec's symbols (€, $, £) and rounding (minor units divided by 100), its limits and features.
 */
import { PLAN_CURRENCIES, type Plan, type PlanCurrency, type PlanTier } from '../protocol/plans';

/** Spec 002 section 9: 'default currency USD'. */
export const DEFAULT_CURRENCY: PlanCurrency = 'usd';

/** Spec 002 section 9: 'symbols €, $, £'. */
export const CURRENCY_SYMBOLS: Record<PlanCurrency, string> = { eur: '€', usd: '$', gbp: '£' };

/** The currency a page address names (`?currency=eur`, any case), or the default. */
export function currencyOf(value: string | undefined): PlanCurrency {
  const lower = value?.toLowerCase();
  return PLAN_CURRENCIES.find((currency) => currency === lower) ?? DEFAULT_CURRENCY;
}

/** The tier that prices `quantity`: the first whose `up_to` reaches it (tiers run in order; the last may have no end). */
function tierFor(tiers: readonly PlanTier[], quantity: number): PlanTier {
  return tiers.find((tier) => tier.up_to === null || tier.up_to === undefined || tier.up_to >= quantity) ?? tiers[tiers.length - 1]!;
}

/**
 * Minor units a month for `quantity` (spec 002: default plan quantity 1): the tier's flat amount plus
 * its unit amount per unit. A unit amount may carry fractions of a cent ('499.5', the provider's
 * decimal string); the sum is rounded to the nearest whole minor unit, halves up, as a charge is.
 */
export function monthlyPriceOf(plan: Plan, currency: PlanCurrency, quantity = 1): number {
  const tier = tierFor(plan.price.currency_options[currency].tiers, quantity);
  const perUnit = Number(tier.unit_amount_decimal ?? 0);
  return Math.round(tier.flat_amount + perUnit * quantity);
}

/**
 * A price for people: the symbol, then the minor units divided by 100 (spec 002 section 9), with
 * thousands separated by commas; two decimals when there are cents ('€4.50'), none when there are
 * not ('€9', '$1,200'). Fractions of a cent are rounded to the nearest cent first.
 */
export function formatPrice(minorUnits: number, currency: PlanCurrency): string {
  const cents = Math.round(minorUnits);
  const sign = cents < 0 ? '-' : '';
  const whole = Math.floor(Math.abs(cents) / 100);
  const rest = Math.abs(cents) % 100;
  const grouped = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${CURRENCY_SYMBOLS[currency]}${grouped}${rest === 0 ? '' : `.${String(rest).padStart(2, '0')}`}`;
}

/** The entries of a semicolon list (`metadata.app_features`), empty ones left out. */
export function featuresOf(plan: Plan): string[] {
  return plan.metadata.app_features.split(';').filter((entry) => entry.length > 0);
}

/** What the features Cairn knows are called on the page; others are shown as their id reads. */
const FEATURE_NAMES: Record<string, string> = {
  vaults: 'Vaults',
  members: 'Sharing with members',
  nfts: 'Atomic NFTs',
  api: 'API key and webhooks',
  organisation: 'Organisation account',
};

/** A feature id as people read it: 'nfts' -> 'Atomic NFTs', 'priority_support' -> 'Priority support'. */
export function featureName(id: string): string {
  const known = FEATURE_NAMES[id];
  if (known) return known;
  const words = id.replace(/[_.-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A limit as a line on a card: '3 vaults', '1 vault', 'Unlimited vaults'. */
export function limitText(limit: number | null, one: string, many: string): string {
  if (limit === null) return `Unlimited ${many}`;
  return `${limit.toLocaleString('en-GB')} ${limit === 1 ? one : many}`;
}
