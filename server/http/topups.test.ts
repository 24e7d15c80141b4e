/**
 * Storage top-ups (issue 21; SYNC_SPEC R118-R119): the server prices them from the plans file,
 * issues an open invoice, refuses past the plan's top-up limit, and adds a top-up's GB to the
 * allowance only once its invoice is paid. Both databases.
 */
import { beforeAll, expect, it } from 'vitest';
import { Invoice, TopUpQuote } from '../../src/protocol/billing';
import { StorageResponse } from '../../src/protocol/vaults';
import { type Config, loadConfig } from '../config';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { markInvoicePaid } from '../services/BillingService';
import { pebbleAndBoulder, writePlansFile } from '../testing/plansFixture';
import { VaultActor } from '../testing/vaults';

const GB = 1_000_000_000;

/** Pebble may top up 3 GB in all; Boulder has no top-up limit, so no top-ups. €0.50 / $0.60 / £0.40 a cloud GB, €2 / $2.40 / £1.70 a permanent GB. */
function plansWithTopUps() {
  const plans = pebbleAndBoulder({ eur: 900, usd: 1000, gbp: 800 });
  plans.plans[0]!.limits = { ...plans.plans[0]!.limits, topup_gb: 3 } as typeof plans.plans[0]['limits'];
  return { ...plans, topup_prices: { permanent_gb: { eur: 200, usd: 240, gbp: 170 }, cloud_gb: { eur: 50, usd: 60, gbp: 40 } } };
}

const GOOD = { name: 'Ada Lovelace', companyName: '', companyVat: '', country: 'GB', address: '12 St James Sq', city: 'London', state: '', zip: 'SW1Y 4JH' };

function configOf(plans: unknown): Partial<Config> {
  const { plans: catalog, storageAllowances, memberLimit } = loadConfig({ PLANS_FILE: writePlansFile(plans) });
  return { plans: catalog, storageAllowances, memberLimit };
}

describeEachDatabase('storage top-ups', (env) => {
  let api: ApiClient;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp({ config: configOf(plansWithTopUps()) }));
  });

  async function storageOf(actor: VaultActor) {
    return StorageResponse.parse((await api.get('/api/storage', { token: actor.token })).body);
  }
  async function withDetails() {
    const actor = await VaultActor.create(env, api);
    expectStatus(await api.request('PUT', '/api/billing/details', GOOD, { token: actor.token }), 200);
    return actor;
  }
  async function topUp(actor: VaultActor, body: Record<string, unknown>) {
    return api.post('/api/billing/topups', { currency: 'eur', acceptTerms: true, ...body }, { token: actor.token });
  }
  async function invoiceCount() {
    const { n } = await env.db.selectFrom('invoices').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    return Number(n);
  }

  it('[R118] the quote is the server\'s: price per GB × GB, VAT 20% included, with the limit and what was bought', async () => {
    const ada = await withDetails();
    const response = await api.post('/api/billing/topup-quote', { storage: 'permanent', gb: 2, currency: 'gbp' }, { token: ada.token });
    expectStatus(response, 200);
    expect(TopUpQuote.parse(response.body)).toEqual({
      storage: 'permanent',
      gb: 2,
      currency: 'gbp',
      unit_amount: 170,
      subtotal: 340,
      tax_percent: 20,
      total_tax: 57,
      total_excluding_tax: 283,
      total: 340,
      limitGb: 3,
      boughtGb: 0,
    });
  });

  it('[R118][R119] a top-up issues an open invoice that adds nothing; once paid it adds exactly its GB to that kind', async () => {
    const ada = await withDetails();
    const before = await storageOf(ada);
    const response = await topUp(ada, { storage: 'cloud', gb: 1 });
    expectStatus(response, 200);
    const invoice = Invoice.parse(response.body);
    expect(invoice).toMatchObject({ status: 'open', currency: 'eur', subtotal: 50, total: 50, total_tax: 8, amount_due: 50, lines: [{ description: 'Cloud storage top-up (GB)', quantity: 1, amount: 50 }] });
    expect(invoice.number).toMatch(/^CAIRN-\d{6}$/);
    expect(await storageOf(ada)).toEqual(before);

    expect(await markInvoicePaid(env.db, invoice.number, Date.now())).toMatchObject({ kind: 'topup' });
    const after = await storageOf(ada);
    expect(after.cloudTotal).toBe(before.cloudTotal + GB);
    expect(after.permanentTotal).toBe(before.permanentTotal);

    const permanent = Invoice.parse((await topUp(ada, { storage: 'permanent', gb: 2 })).body);
    await markInvoicePaid(env.db, permanent.number, Date.now());
    expect(await storageOf(ada)).toMatchObject({ cloudTotal: before.cloudTotal + GB, permanentTotal: before.permanentTotal + 2 * GB });
  });

  it('[R118] past the top-up limit (open and paid top-ups counted, both kinds) is TOPUP_LIMIT and issues nothing', async () => {
    const ada = await withDetails();
    const paid = Invoice.parse((await topUp(ada, { storage: 'cloud', gb: 1 })).body);
    await markInvoicePaid(env.db, paid.number, Date.now());
    expectStatus(await topUp(ada, { storage: 'permanent', gb: 1 }), 200); // open
    const before = { invoices: await invoiceCount(), storage: await storageOf(ada) };

    const refused = await topUp(ada, { storage: 'cloud', gb: 2 });
    expectError(refused, 403, 'TOPUP_LIMIT');
    expect(refused.body).toMatchObject({ error: { message: "You've hit the top up limit" } });
    expect(await invoiceCount()).toBe(before.invoices);
    expect(await storageOf(ada)).toEqual(before.storage);

    // The last GB still fits; after it, even the quote says the limit is reached.
    expectStatus(await topUp(ada, { storage: 'cloud', gb: 1 }), 200);
    expectError(await api.post('/api/billing/topup-quote', { storage: 'cloud', gb: 1, currency: 'eur' }, { token: ada.token }), 403, 'TOPUP_LIMIT');
  });

  it("[R118] another user's top-ups count neither toward the limit nor toward the allowance", async () => {
    const ada = await withDetails();
    const bob = await withDetails();
    const bobBefore = await storageOf(bob);
    const adas = Invoice.parse((await topUp(ada, { storage: 'cloud', gb: 3 })).body);
    await markInvoicePaid(env.db, adas.number, Date.now());
    expect(await storageOf(bob)).toEqual(bobBefore);
    const quote = TopUpQuote.parse((await api.post('/api/billing/topup-quote', { storage: 'cloud', gb: 3, currency: 'eur' }, { token: bob.token })).body);
    expect(quote.boughtGb).toBe(0);
    expectStatus(await topUp(bob, { storage: 'cloud', gb: 3 }), 200);
  });

  it('[R118] a plan without a top-up limit sells no top-ups: TOPUP_LIMIT on the quote and the purchase', async () => {
    const ada = await withDetails();
    await env.db.updateTable('users').set({ plan_id: 'boulder' }).where('id', '=', ada.userId).execute();
    expectError(await api.post('/api/billing/topup-quote', { storage: 'cloud', gb: 1, currency: 'eur' }, { token: ada.token }), 403, 'TOPUP_LIMIT');
    expectError(await topUp(ada, { storage: 'cloud', gb: 1 }), 403, 'TOPUP_LIMIT');
  });

  it("[R118] bad input is refused and issues nothing: terms unticked (the spec's text), no billing details, bad kind, GB or currency, a client's price", async () => {
    const ada = await VaultActor.create(env, api);
    const before = await invoiceCount();
    expectError(await topUp(ada, { storage: 'cloud', gb: 1 }), 422, 'UNPROCESSABLE');
    expectStatus(await api.request('PUT', '/api/billing/details', GOOD, { token: ada.token }), 200);
    const unticked = await topUp(ada, { storage: 'cloud', gb: 1, acceptTerms: false });
    expectError(unticked, 400, 'VALIDATION_FAILED');
    expect(JSON.stringify(unticked.body)).toContain('Accepting the terms and conditions is mandatory before signing up for the plan.');
    for (const bad of [{ storage: 'disk', gb: 1 }, { storage: 'cloud', gb: 0 }, { storage: 'cloud', gb: 1.5 }, { storage: 'cloud', gb: -1 }, { storage: 'cloud', gb: 1, currency: 'jpy' }, { storage: 'cloud', gb: 1, total: 1 }]) {
      expectError(await topUp(ada, bad), 400, 'VALIDATION_FAILED');
    }
    expectError(await api.post('/api/billing/topups', { storage: 'cloud', gb: 1, currency: 'eur', acceptTerms: true }), 401, 'UNAUTHENTICATED');
    expect(await invoiceCount()).toBe(before);
  });

  it("[R119] the operator's own allowance still replaces plan and top-ups", async () => {
    const ada = await withDetails();
    const paid = Invoice.parse((await topUp(ada, { storage: 'cloud', gb: 1 })).body);
    await markInvoicePaid(env.db, paid.number, Date.now());
    await env.db.updateTable('users').set({ cloud_allowance: 5 * GB }).where('id', '=', ada.userId).execute();
    expect((await storageOf(ada)).cloudTotal).toBe(5 * GB);
  });

  it('[R118] an open top-up does not block subscribing to a plan (the one-open-invoice rule counts subscriptions)', async () => {
    const ada = await withDetails();
    expectStatus(await topUp(ada, { storage: 'cloud', gb: 1 }), 200);
    const subscribe = { planId: 'boulder', currency: 'eur', quantity: 1, acceptTerms: true, acceptRenewal: true };
    expectStatus(await api.post('/api/billing/subscriptions', subscribe, { token: ada.token }), 200);
    expectError(await api.post('/api/billing/subscriptions', subscribe, { token: ada.token }), 409, 'CONFLICT');
  });

  it('[R118] a plans file without top-up prices sells none', async () => {
    const plain = new ApiClient(await env.buildApp({ config: configOf({ ...plansWithTopUps(), topup_prices: undefined }) }));
    const ada = await VaultActor.create(env, plain);
    expectStatus(await plain.request('PUT', '/api/billing/details', GOOD, { token: ada.token }), 200);
    expectError(await plain.post('/api/billing/topups', { storage: 'cloud', gb: 1, currency: 'eur', acceptTerms: true }, { token: ada.token }), 403, 'TOPUP_LIMIT');
    await plain.app.close();
  });
});
