/**
 * Features a plan can gate by naming them in `metadata.app_features` (spec 002: "Feature access
 * depends on plan metadata app_features"; docs/SYNC_SPEC.md R122). Only what Cairn has today is
 * gated: creating vaults, inviting members and the organisation account. Names a plans file may also hold for features not
 * built yet ('nfts', 'api', docs/plans.example.json) gate nothing until those features exist.
 *
 * A feature is gated only when some plan of the file names it: the default plans (every list
 * empty) and a file that never names a feature take nothing away from anyone. Once any plan names
 * it, a plan that does not list it lacks it.
 */
import type { Plan, PlanCatalog } from './plans';

export const PLAN_FEATURES = {
  vaults: 'Creating vaults',
  members: 'Inviting members',
  organisation: 'Organisation account',
} as const;
export type PlanFeature = keyof typeof PLAN_FEATURES;

function listOf(plan: Pick<Plan, 'metadata'>): string[] {
  return plan.metadata.app_features.split(';').filter((entry) => entry.length > 0);
}

/** Whether `plan` of `catalog` has `feature` (R122). */
export function planHasFeature(catalog: Pick<PlanCatalog, 'plans'>, plan: Pick<Plan, 'metadata'>, feature: PlanFeature): boolean {
  const gated = catalog.plans.some((p) => listOf(p).includes(feature));
  return !gated || listOf(plan).includes(feature);
}

/** The text a gated action is refused with, naming the plan. */
export function featureNotInPlanText(feature: PlanFeature, planName: string): string {
  return `${PLAN_FEATURES[feature]} is not part of the ${planName} plan. Upgrade your plan to use it.`;
}
