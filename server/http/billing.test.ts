/**
 * Checkout (issue 21; SYNC_SPEC R112-R114): billing details saved per account and validated at the
 * edge with the spec's rules, and the upcoming invoice the server computes from the plans file and
 * its coupons. Both databases.
 */
import { beforeAll, expect, it } from 'vitest';
import { BillingDetailsResponse, Invoice, UpcomingInvoice } from '../../src/protocol/billing';
import { PlansResponse } from '../../src/protocol/plans';
import { type Config, loadConfig } from '../config';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { pebbleAndBoulder, writePlansFile } from '../testing/plansFixture';
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
  const file = writePlansFile(PLANS);
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

  const SUBSCRIBE = { planId: 'boulder', currency: 'eur', quantity: 1, coupon: 'SPRING25', acceptTerms: true, acceptRenewal: true };

  async function currentPlanOf(actor: VaultActor) {
    return PlansResponse.parse((await api.get('/api/plans', { token: actor.token })).body).currentPlanId;
  }

  it('[R114] subscribing issues one open invoice with the upcoming figures; the plan does not change until it is paid', async () => {
    const ada = await VaultActor.create(env, api);
    expectStatus(await api.request('PUT', '/api/billing/details', GOOD, { token: ada.token }), 200);
    const response = await api.post('/api/billing/subscriptions', SUBSCRIBE, { token: ada.token });
    expectStatus(response, 200);
    const invoice = Invoice.parse(response.body);
    expect(invoice).toMatchObject({
      status: 'open',
      currency: 'eur',
      planId: 'boulder',
      coupon: 'SPRING25',
      subtotal: 900,
      discount: 225,
      total: 675,
      total_tax: 113,
      amount_due: 675,
      lines: [
        { description: 'Boulder (monthly)', quantity: 1, amount: 900 },
        { description: 'Discount SPRING25', quantity: 1, amount: -225 },
      ],
    });
    expect(invoice.number).toMatch(/^CAIRN-\d{6}$/);
    expect(await currentPlanOf(ada)).toBe('pebble');
    // A second click does not issue a second invoice.
    const again = await api.post('/api/billing/subscriptions', SUBSCRIBE, { token: ada.token });
    expectError(again, 409, 'CONFLICT');
    expect(JSON.stringify(again.body)).toContain(invoice.number);
    // Another account's invoice gets another number.
    const bob = await VaultActor.create(env, api);
    expectStatus(await api.request('PUT', '/api/billing/details', GOOD, { token: bob.token }), 200);
    const bobs = Invoice.parse((await api.post('/api/billing/subscriptions', SUBSCRIBE, { token: bob.token })).body);
    expect(bobs.number).not.toBe(invoice.number);
  });

  it("[R114] no subscription without both boxes ticked (the spec's text), without billing details, or with a wrong coupon", async () => {
    const ada = await VaultActor.create(env, api);
    const noDetails = await api.post('/api/billing/subscriptions', SUBSCRIBE, { token: ada.token });
    expectError(noDetails, 422, 'UNPROCESSABLE');
    expectStatus(await api.request('PUT', '/api/billing/details', GOOD, { token: ada.token }), 200);
    for (const unticked of [{ acceptTerms: false }, { acceptRenewal: false }]) {
      const response = await api.post('/api/billing/subscriptions', { ...SUBSCRIBE, ...unticked }, { token: ada.token });
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(response.body)).toContain('Accepting the terms and conditions is mandatory before signing up for the plan.');
    }
    expectError(await api.post('/api/billing/subscriptions', { ...SUBSCRIBE, coupon: 'NOPE' }, { token: ada.token }), 422, 'COUPON_INVALID');
    expectError(await api.post('/api/billing/subscriptions', { ...SUBSCRIBE, planId: 'pebble' }, { token: ada.token }), 422, 'UNPROCESSABLE');
    // Nothing was issued: a good request now succeeds (no open invoice in the way).
    expectStatus(await api.post('/api/billing/subscriptions', SUBSCRIBE, { token: ada.token }), 200);
  });

  it('[R113] discount codes cannot be guessed by the thousand: the upcoming invoice and subscribing are rate-limited', async () => {
    const limited = new ApiClient(await env.buildApp({ config: { ...plansConfig(), authRateLimit: 2 } }));
    const guesser = await VaultActor.create(env, limited);
    for (const code of ['GUESS1', 'GUESS2']) {
      expectError(await limited.post('/api/billing/upcoming-invoice', { planId: 'boulder', currency: 'eur', quantity: 1, coupon: code }, { token: guesser.token }), 422, 'COUPON_INVALID');
    }
    expectError(await limited.post('/api/billing/upcoming-invoice', { planId: 'boulder', currency: 'eur', quantity: 1, coupon: 'GUESS3' }, { token: guesser.token }), 429, 'RATE_LIMITED');
    await limited.app.close();
  });
});
