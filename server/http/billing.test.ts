/**
 * Checkout (issue 21; SYNC_SPEC R112-R114): billing details saved per account and validated at the
 * edge with the spec's rules, and the upcoming invoice the server computes from the plans file and
 * its coupons. Both databases.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { BillingDetailsResponse, UpcomingInvoice } from '../../src/protocol/billing';
import { type Config, loadConfig } from '../config';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { pebbleAndBoulder } from '../testing/plansFixture';
import { VaultActor } from '../testing/vaults';

/** Boulder at €9 / $10 / £8, and three coupons: 25% off any plan, $3 off, and one for another plan only. */
const PLANS = {
  ...pebbleAndBoulder({ eur: 900, usd: 1000, gbp: 800 }),
  coupons: [
    { code: 'SPRING25', percent_off: 25 },
    { code: 'THREEOFF', amount_off: { usd: 300 } },
    { code: 'OTHERPLAN', percent_off: 50, plans: ['granite'] },
  ],
};

const GOOD = { name: 'Ada Lovelace', companyName: '', companyVat: '', country: 'GB', address: '12 St James Sq', city: 'London', state: '', zip: 'SW1Y 4JH' };

function plansConfig(): Partial<Config> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-plans-')), 'plans.json');
  fs.writeFileSync(file, JSON.stringify(PLANS));
  const { plans, storageAllowances, memberLimit } = loadConfig({ PLANS_FILE: file });
  return { plans, storageAllowances, memberLimit };
}

describeEachDatabase('checkout: billing details and the upcoming invoice', (env) => {
  let api: ApiClient;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp({ config: plansConfig() }));
  });

  async function detailsOf(actor: VaultActor) {
    const response = await api.get('/api/billing/details', { token: actor.token });
    expectStatus(response, 200);
    return BillingDetailsResponse.parse(response.body).details;
  }

  it('[R112] billing details are saved per account and read back; another account sees none', async () => {
    const ada = await VaultActor.create(env, api);
    const bob = await VaultActor.create(env, api);
    expect(await detailsOf(ada)).toBeNull();

    expectStatus(await api.request('PUT', '/api/billing/details', { ...GOOD, companyName: 'Analytical Engines Ltd' }, { token: ada.token }), 200);
    expect(await detailsOf(ada)).toEqual({ ...GOOD, companyName: 'Analytical Engines Ltd' });
    expect(await detailsOf(bob)).toBeNull();

    // A second save replaces the first.
    expectStatus(await api.request('PUT', '/api/billing/details', { ...GOOD, city: 'Paris', zip: '75001' }, { token: ada.token }), 200);
    expect(await detailsOf(ada)).toEqual({ ...GOOD, city: 'Paris', zip: '75001' });
  });

  it.each([
    ['name of 2 characters', { name: 'Al' }, 'name'],
    ['country of 1 character', { country: 'G' }, 'country'],
    ['city of 2 characters', { city: 'Ly' }, 'city'],
    ['address of 2 characters', { address: '12' }, 'address'],
    ['zip of 2 characters', { zip: '12' }, 'zip'],
    ['zip of 12 characters', { zip: '123456789012' }, 'zip'],
    ['name of spaces only', { name: '     ' }, 'name'],
  ])('[R112] a %s is refused with VALIDATION_FAILED on that field and changes nothing', async (_title, change, field) => {
    const ada = await VaultActor.create(env, api);
    expectStatus(await api.request('PUT', '/api/billing/details', GOOD, { token: ada.token }), 200);
    const response = await api.request('PUT', '/api/billing/details', { ...GOOD, ...change }, { token: ada.token });
    expectError(response, 400, 'VALIDATION_FAILED');
    expect(JSON.stringify(response.body)).toContain(field);
    expect(await detailsOf(ada)).toEqual(GOOD);
  });

  it('[R112] billing details need a session', async () => {
    expectError(await api.request('PUT', '/api/billing/details', GOOD), 401, 'UNAUTHENTICATED');
    expectError(await api.get('/api/billing/details'), 401, 'UNAUTHENTICATED');
  });

  async function upcoming(actor: VaultActor, body: Record<string, unknown>) {
    return api.post('/api/billing/upcoming-invoice', body, { token: actor.token });
  }

  it('[R114] the upcoming invoice: the plan price in the currency, VAT 20% included in the total', async () => {
    const ada = await VaultActor.create(env, api);
    const response = await upcoming(ada, { planId: 'boulder', currency: 'eur', quantity: 1 });
    expectStatus(response, 200);
    expect(UpcomingInvoice.parse(response.body)).toEqual({
      planId: 'boulder',
      planName: 'Boulder',
      currency: 'eur',
      quantity: 1,
      subtotal: 900,
      discount: null,
      tax_percent: 20,
      total_tax: 150,
      total_excluding_tax: 750,
      total: 900,
    });
  });

  it('[R113] a percent coupon (any case) and an amount coupon take their discount off the total', async () => {
    const ada = await VaultActor.create(env, api);
    const percent = UpcomingInvoice.parse((await upcoming(ada, { planId: 'boulder', currency: 'gbp', quantity: 1, coupon: 'spring25' })).body);
    expect(percent).toMatchObject({ subtotal: 800, discount: { coupon: { name: 'SPRING25', percent_off: 25 }, amount: 200 }, total: 600, total_tax: 100 });

    const amount = UpcomingInvoice.parse((await upcoming(ada, { planId: 'boulder', currency: 'usd', quantity: 1, coupon: 'THREEOFF' })).body);
    expect(amount).toMatchObject({ subtotal: 1000, discount: { coupon: { name: 'THREEOFF', percent_off: null }, amount: 300 }, total: 700, total_tax: 117 });
  });

  it("[R113] an unknown code, or one for another plan, is COUPON_INVALID with the spec's text", async () => {
    const ada = await VaultActor.create(env, api);
    for (const coupon of ['NOPE', 'OTHERPLAN']) {
      const response = await upcoming(ada, { planId: 'boulder', currency: 'eur', quantity: 1, coupon });
      expectError(response, 422, 'COUPON_INVALID');
      expect(response.body).toMatchObject({ error: { message: 'Incorrect discount code' } });
    }
  });

  it('[R114] an unknown plan is NOT_FOUND, a free plan has nothing to pay, bad input is refused', async () => {
    const ada = await VaultActor.create(env, api);
    expectError(await upcoming(ada, { planId: 'granite', currency: 'eur', quantity: 1 }), 404, 'NOT_FOUND');
    expectError(await upcoming(ada, { planId: 'pebble', currency: 'eur', quantity: 1 }), 422, 'UNPROCESSABLE');
    expectError(await upcoming(ada, { planId: 'boulder', currency: 'jpy', quantity: 1 }), 400, 'VALIDATION_FAILED');
    expectError(await upcoming(ada, { planId: 'boulder', currency: 'eur', quantity: 0 }), 400, 'VALIDATION_FAILED');
    expectError(await upcoming(ada, { planId: 'boulder', currency: 'eur', quantity: 1, coupon: 'AB' }), 400, 'VALIDATION_FAILED');
    expectError(await upcoming(ada, { planId: 'boulder', currency: 'eur', quantity: 1, total: 1 }), 400, 'VALIDATION_FAILED');
  });
});
