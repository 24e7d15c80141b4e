import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Plans files for tests (PLANS_FILE, src/protocol/plans.ts): prices in minor units per currency,
 * and the two-plan file the plans API and the pricing page are tested with.
 */

/** A price of `eur`, `usd` and `gbp` minor units a month whatever the quantity (one flat tier). */
export function planPrice(eur: number, usd = eur, gbp = eur) {
  const tiers = (cents: number) => ({ tiers: [{ flat_amount: cents, unit_amount_decimal: '0' }] });
  return { currency_options: { eur: tiers(eur), usd: tiers(usd), gbp: tiers(gbp) } };
}

/** Pebble (free, the default: `pebbleVaults` vaults, 5 members) and Boulder (paid at `boulder` per currency, no vault limit). */
export function pebbleAndBoulder(boulder: { eur: number; usd: number; gbp: number }, boulderFeatures = 'vaults;members;api', pebbleVaults = 3) {
  return {
    default_plan: 'pebble',
    sunset_notice: false,
    plans: [
      {
        id: 'pebble',
        name: 'Pebble',
        price: planPrice(0),
        metadata: { app_features: 'vaults;members', cloud_gb: '1' },
        storage: { permanent_bytes: 100_000_000, cloud_bytes: 1_000_000_000 },
        limits: { vaults: pebbleVaults, members: 5 },
      },
      {
        id: 'boulder',
        name: 'Boulder',
        price: planPrice(boulder.eur, boulder.usd, boulder.gbp),
        metadata: { app_features: boulderFeatures, cloud_gb: '100' },
        storage: { permanent_bytes: 10_000_000_000, cloud_bytes: 100_000_000_000 },
        limits: { vaults: null as number | null, members: 50 },
      },
    ],
  };
}

/** Writes `plans` to a plans.json of its own in a new temporary folder; answers its path (PLANS_FILE). */
export function writePlansFile(plans: unknown): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-plans-')), 'plans.json');
  fs.writeFileSync(file, JSON.stringify(plans));
  return file;
}
