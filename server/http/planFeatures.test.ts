/**
 * Feature gating by a plan's `metadata.app_features` (SYNC_SPEC R122): a feature some plan of the
 * file names is gated, and a plan that does not list it is refused it with 403 FEATURE_NOT_IN_PLAN
 * naming the plan, changing nothing; the default plans (no plan names a feature) gate nothing, so
 * Pebble keeps today's behaviour. Both databases.
 */
import { expect, it } from 'vitest';
import { type Config, loadConfig } from '../config';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { createPrivateVault, inviteOp, postInvitations } from '../testing/members';
import { planPrice, writePlansFile } from '../testing/plansFixture';
import { countVaultRows, expectAccepted, expectRejected, newId, sealed, VaultActor } from '../testing/vaults';

function plan(id: string, name: string, cents: number, features: string) {
  return { id, name, price: planPrice(cents), metadata: { app_features: features }, storage: { permanent_bytes: 1_000_000, cloud_bytes: 5_000_000 }, limits: { vaults: null, members: null } };
}

/** Pebble lists vaults only; Boulder vaults and members: inviting is Boulder's. Flint lists neither. */
function plansConfig(): Partial<Config> {
  const file = writePlansFile({
    default_plan: 'pebble',
    plans: [plan('pebble', 'Pebble', 0, 'vaults'), plan('boulder', 'Boulder', 1000, 'vaults;members'), plan('flint', 'Flint', 0, 'nfts')],
  });
  const { plans, storageAllowances, memberLimit } = loadConfig({ PLANS_FILE: file });
  return { plans, storageAllowances, memberLimit };
}

describeEachDatabase('plans: features gated by app_features (R122)', (env) => {
  it('[R122] a plan without a feature the file names is refused it with FEATURE_NOT_IN_PLAN naming the plan; moving to a plan with it lets it through', async () => {
    const api = new ApiClient(await env.buildApp({ config: plansConfig() }));
    const owner = await VaultActor.create(env, api);
    const alice = await VaultActor.create(env, api);
    const { vaultId, ring } = await createPrivateVault(owner);
    const rows = await countVaultRows(env.db);
    const refused = await postInvitations(owner, vaultId, [await inviteOp(owner, vaultId, alice, 'VIEWER', ring)]);
    expectError(refused, 403, 'FEATURE_NOT_IN_PLAN');
    expect(JSON.stringify(refused.body)).toContain('Inviting members is not part of the Pebble plan');
    expect(await countVaultRows(env.db)).toEqual(rows);

    // Flint names neither vaults nor members: both refused, the vault creation inside its op too.
    await env.db.updateTable('users').set({ plan_id: 'flint' }).where('id', '=', owner.userId).execute();
    const id = newId();
    expectRejected(await owner.apply(id, id, { type: 'vault.create', isPublic: false, isCloud: true, name: sealed(), ownerKeys: sealed(80).c }), 'FEATURE_NOT_IN_PLAN');
    expect(await env.db.selectFrom('vaults').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();

    await env.db.updateTable('users').set({ plan_id: 'boulder' }).where('id', '=', owner.userId).execute();
    expectStatus(await postInvitations(owner, vaultId, [await inviteOp(owner, vaultId, alice, 'VIEWER', ring)]), 200);
    const again = newId();
    expectAccepted(await owner.apply(again, again, { type: 'vault.create', isPublic: false, isCloud: true, name: sealed(), ownerKeys: sealed(80).c }));
  });

  it('[R122] the default plans name no feature: Pebble creates vaults and invites members as before', async () => {
    const api = new ApiClient(await env.buildApp());
    const owner = await VaultActor.create(env, api);
    const alice = await VaultActor.create(env, api);
    const { vaultId, ring } = await createPrivateVault(owner);
    expectStatus(await postInvitations(owner, vaultId, [await inviteOp(owner, vaultId, alice, 'VIEWER', ring)]), 200);
  });
});
