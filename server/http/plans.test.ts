/**
 * The pricing page's plans (issue 21; SYNC_SPEC R111): GET /api/plans gives a signed-in user the
 * operator's plans in the spec's shape, with the figures the server enforces, and marks the
 * user's own plan, which follows `npm run admin -- plan`. Both databases.
 */
import { beforeAll, expect, it } from 'vitest';
import { DEFAULT_PLAN_CATALOG, PlansResponse } from '../../src/protocol/plans';
import { type AdminLog, AdminService } from '../admin/AdminService';
import { runAdminCommand } from '../admin/adminCommand';
import { type Config, loadConfig } from '../config';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { pebbleAndBoulder, writePlansFile } from '../testing/plansFixture';
import { VaultActor } from '../testing/vaults';

/** Two plans: Pebble (free, the default) and Boulder (paid, priced differently per currency). */
const PLANS = pebbleAndBoulder({ eur: 900, usd: 1000, gbp: 800 });

function plansConfig(env: Record<string, string> = {}): Partial<Config> {
  const file = writePlansFile(PLANS);
  const { plans, storageAllowances, memberLimit } = loadConfig({ PLANS_FILE: file, ...env });
  return { plans, storageAllowances, memberLimit };
}

async function plansOf(api: ApiClient, actor: VaultActor): Promise<PlansResponse> {
  const response = await api.get('/api/plans', { token: actor.token });
  expectStatus(response, 200);
  return PlansResponse.parse(response.body);
}

describeEachDatabase('plans: the pricing page', (env) => {
  let api: ApiClient;
  let config: Partial<Config>;

  beforeAll(async () => {
    config = plansConfig();
    api = new ApiClient(await env.buildApp({ config }));
  });

  function admin(service = new AdminService(env.db, env.clock, { info: () => {} } satisfies AdminLog, 'operator', config.plans)) {
    const out: string[] = [];
    return { run: (...argv: string[]) => runAdminCommand(argv, service, { out: (l) => out.push(l), err: () => {} }), out };
  }

  it("[R111] a signed-in user gets the plans file's plans in the spec's shape, their own (the default) marked", async () => {
    const user = await VaultActor.create(env, api);
    const answer = await plansOf(api, user);
    expect(answer).toEqual({
      subscriptionPlans: [
        { ...PLANS.plans[0], active_subscription: true },
        { ...PLANS.plans[1], active_subscription: false },
      ],
      currentPlanId: 'pebble',
      defaultPlanId: 'pebble',
      sunsetNotice: false,
    });
  });

  it('[R111] after `admin plan` the current plan is the new one; `default` brings it back', async () => {
    const user = await VaultActor.create(env, api);
    const cmd = admin();
    expect(await cmd.run('plan', user.user.email, 'boulder')).toBe(0);
    const moved = await plansOf(api, user);
    expect(moved.currentPlanId).toBe('boulder');
    expect(moved.subscriptionPlans.map((plan) => [plan.id, plan.active_subscription])).toEqual([
      ['pebble', false],
      ['boulder', true],
    ]);
    // Another account is still on the default plan.
    expect((await plansOf(api, await VaultActor.create(env, api))).currentPlanId).toBe('pebble');

    env.clock.advance(1000);
    expect(await cmd.run('plan', user.user.email, 'default')).toBe(0);
    expect((await plansOf(api, user)).currentPlanId).toBe('pebble');
  });

  it('[R111] signed out: 401, and no plan is given', async () => {
    const response = await api.get('/api/plans');
    expectError(response, 401, 'UNAUTHENTICATED');
    expect(JSON.stringify(response.body)).not.toContain('Boulder');
  });

  it("[R111] the figures are the ones enforced: the default plan's storage and member limit follow the server's settings", async () => {
    const overridden = new ApiClient(
      await env.buildApp({ config: plansConfig({ CLOUD_STORAGE_BYTES: '7000', PERMANENT_STORAGE_BYTES: '6000', MEMBER_LIMIT: '9' }) }),
    );
    const user = await VaultActor.create(env, overridden);
    const [pebble, boulder] = (await plansOf(overridden, user)).subscriptionPlans;
    expect(pebble).toMatchObject({ id: 'pebble', storage: { cloud_bytes: 7000, permanent_bytes: 6000 }, limits: { vaults: 3, members: 9 } });
    expect(boulder).toMatchObject({ id: 'boulder', storage: PLANS.plans[1]!.storage, limits: PLANS.plans[1]!.limits });
  });

  it('[R111] with no plans file: the spec\'s one free plan, Pebble, and the sunset notice on', async () => {
    const plain = new ApiClient(await env.buildApp());
    const user = await VaultActor.create(env, plain);
    const answer = await plansOf(plain, user);
    expect(answer.subscriptionPlans.map((plan) => plan.name)).toEqual(['Pebble']);
    expect(answer.subscriptionPlans[0]).toMatchObject({ storage: DEFAULT_PLAN_CATALOG.plans[0]!.storage, active_subscription: true });
    expect(answer.sunsetNotice).toBe(true);
  });
});
