/**
 * Payment by invoice (issue 21; SYNC_SPEC R115-R117): the operator marks an invoice paid with the
 * admin command and its plan takes effect at once; each account pages through its own invoices
 * and downloads each as a PDF; ending a subscription returns the account to the free plan. Both
 * databases.
 */
import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { EndSubscriptionResponse, Invoice, InvoicePage } from '../../src/protocol/billing';
import { PlansResponse } from '../../src/protocol/plans';
import type { OperationBody } from '../../src/protocol/vaults';
import { type AdminLog, AdminService } from '../admin/AdminService';
import { runAdminCommand } from '../admin/adminCommand';
import { type Config, loadConfig } from '../config';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { pdfStrings, pdfText } from '../testing/pdfText';
import { pebbleAndBoulder, writePlansFile } from '../testing/plansFixture';
import { expectAccepted, expectRejected, newId, sealed, VaultActor } from '../testing/vaults';

const PLANS = { ...pebbleAndBoulder({ eur: 900, usd: 1000, gbp: 800 }), coupons: [{ code: 'SPRING25', percent_off: 25 }] };
const GOOD = { name: 'Ada Lovelace', companyName: 'Analytical Engines Ltd', companyVat: 'GB123', country: 'GB', address: '12 St James Sq', city: 'London', state: '', zip: 'SW1Y 4JH' };
const SUBSCRIBE = { planId: 'boulder', currency: 'eur', quantity: 1, coupon: 'SPRING25', acceptTerms: true, acceptRenewal: true };
const ISSUER = { name: 'Cairn Hosting Ltd', paymentDetails: ['Bank: Example Bank', 'IBAN: GB33 BUKB 2020 1555 5555 55'] };

function invoicesConfig(): Partial<Config> {
  const { plans, storageAllowances, memberLimit } = loadConfig({ PLANS_FILE: writePlansFile(PLANS) });
  return { plans, storageAllowances, memberLimit, invoiceIssuer: ISSUER };
}

function privateVaultBody(): OperationBody {
  return { type: 'vault.create', isPublic: false, isCloud: true, name: sealed(), ownerKeys: sealed(80).c };
}

describeEachDatabase('payment by invoice: marking paid, listing, PDFs, ending a subscription', (env) => {
  let api: ApiClient;
  let config: Partial<Config>;

  beforeAll(async () => {
    config = invoicesConfig();
    api = new ApiClient(await env.buildApp({ config }));
  });

  /** `npm run admin` on the suite's database, with its output and log lines kept. */
  function admin() {
    const log: Record<string, unknown>[] = [];
    const adminLog: AdminLog = { info: (fields) => log.push(fields) };
    const service = new AdminService(env.db, env.clock, adminLog, 'operator', config.plans);
    const out: string[] = [];
    const err: string[] = [];
    const run = (...argv: string[]) => runAdminCommand(argv, service, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { service, run, out, err, log };
  }

  async function subscribed(): Promise<{ actor: VaultActor; invoice: Invoice }> {
    const actor = await VaultActor.create(env, api);
    expectStatus(await api.request('PUT', '/api/billing/details', GOOD, { token: actor.token }), 200);
    const response = await api.post('/api/billing/subscriptions', SUBSCRIBE, { token: actor.token });
    expectStatus(response, 200);
    return { actor, invoice: Invoice.parse(response.body) };
  }

  async function currentPlanOf(actor: VaultActor): Promise<string> {
    return PlansResponse.parse((await api.get('/api/plans', { token: actor.token })).body).currentPlanId;
  }

  async function pageOf(actor: VaultActor, query = ''): Promise<InvoicePage> {
    const response = await api.get(`/api/billing/invoices${query}`, { token: actor.token });
    expectStatus(response, 200);
    return InvoicePage.parse(response.body);
  }

  /** An invoice row as another part of the server issues it (a top-up, or older subscriptions). */
  async function insertInvoice(userId: string, number: string, createdAt: number, kind: 'subscription' | 'topup' = 'subscription') {
    const id = crypto.randomUUID();
    await env.db
      .insertInto('invoices')
      .values({
        id,
        number,
        user_id: userId,
        plan_id: 'boulder',
        currency: 'gbp',
        quantity: 1,
        coupon: null,
        subtotal: 800,
        discount: 0,
        total_tax: 133,
        total: 800,
        lines: JSON.stringify([{ description: kind === 'topup' ? '1 GB of cloud storage' : 'Boulder (monthly)', quantity: 1, amount: 800 }]),
        status: 'open',
        created_at: createdAt,
        kind,
        topup_storage: kind === 'topup' ? 'cloud' : null,
        topup_gb: kind === 'topup' ? 1 : null,
        paid_at: null,
      })
      .execute();
    return id;
  }

  async function pdfOf(actor: VaultActor, invoiceId: string) {
    return api.app.inject({ method: 'GET', url: `/api/billing/invoices/${invoiceId}/pdf`, headers: { authorization: `Bearer ${actor.token}` } });
  }

  it('[R115] invoice-paid marks a subscription paid and moves the account to its plan at once: the vault limit is lifted; recorded and logged', async () => {
    const { actor, invoice } = await subscribed();
    // Pebble allows 3 vaults: the fourth is refused before payment.
    for (let i = 0; i < 3; i += 1) await actor.createVault();
    const fourth = newId();
    expectRejected(await actor.apply(fourth, fourth, privateVaultBody()), 'VAULT_LIMIT');
    expect(await currentPlanOf(actor)).toBe('pebble');

    env.clock.advance(60_000);
    const cmd = admin();
    const before = env.clock.now();
    expect(await cmd.run('invoice-paid', invoice.number)).toBe(0);
    const after = env.clock.now();
    expect(cmd.out.at(-1)).toBe(`Invoice ${invoice.number} is paid: ${actor.user.email.toLowerCase()} is on the plan boulder.`);

    expect(await currentPlanOf(actor)).toBe('boulder');
    const again = newId();
    expectAccepted(await actor.apply(again, again, privateVaultBody()));
    const listed = (await pageOf(actor)).data.find((entry) => entry.id === invoice.id);
    expect(listed).toMatchObject({ status: 'paid', amount_due: 0, total: 675 });
    const row = await env.db.selectFrom('invoices').select(['status', 'paid_at']).where('id', '=', invoice.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('paid');
    expect(Number(row.paid_at)).toBeGreaterThanOrEqual(before);
    expect(Number(row.paid_at)).toBeLessThanOrEqual(after);

    const [action] = await cmd.service.actions();
    expect(action).toMatchObject({ actor: 'operator', action: 'invoice-paid', target: invoice.number, details: { user: actor.user.email.toLowerCase(), kind: 'subscription', plan: 'boulder' } });
    expect(cmd.log).toEqual([{ adminAction: 'invoice-paid', actor: 'operator', target: invoice.number, details: { user: actor.user.email.toLowerCase(), kind: 'subscription', plan: 'boulder' } }]);
  });

  it('[R115] an unknown or already paid invoice is refused with a clear error and changes nothing', async () => {
    const { actor, invoice } = await subscribed();
    const cmd = admin();
    expect(await cmd.run('invoice-paid', invoice.number)).toBe(0);
    const paidAt = (await env.db.selectFrom('invoices').select('paid_at').where('id', '=', invoice.id).executeTakeFirstOrThrow()).paid_at;
    const actionsBefore = (await cmd.service.actions()).length;
    // The operator moved the account back meanwhile: a second marking must not move it again.
    expect(await cmd.run('plan', actor.user.email, 'default')).toBe(0);

    env.clock.advance(60_000);
    expect(await cmd.run('invoice-paid', invoice.number)).toBe(1);
    expect(cmd.err.at(-1)).toBe(`Invoice ${invoice.number} is already paid`);
    expect(await cmd.run('invoice-paid', 'CAIRN-999999')).toBe(1);
    expect(cmd.err.at(-1)).toBe('No invoice CAIRN-999999');
    await expect(cmd.service.invoicePaid('CAIRN-999999')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(cmd.service.invoicePaid(invoice.number)).rejects.toMatchObject({ code: 'CONFLICT' });

    expect(await currentPlanOf(actor)).toBe('pebble');
    const row = await env.db.selectFrom('invoices').select('paid_at').where('id', '=', invoice.id).executeTakeFirstOrThrow();
    expect(Number(row.paid_at)).toBe(Number(paidAt));
    // Only the `plan` move was recorded after the first marking.
    expect((await cmd.service.actions()).length).toBe(actionsBefore + 1);
    expect(await cmd.run('invoice-paid')).toBe(2);
  });

  it('[R115] a top-up invoice only becomes paid: the plan stays; `invoices --open` lists what is left to pay', async () => {
    const actor = await VaultActor.create(env, api);
    const number = `CAIRN-T${crypto.randomInt(100_000, 999_999)}`;
    await insertInvoice(actor.userId, number, env.clock.now(), 'topup');
    const cmd = admin();
    expect(await cmd.run('invoices', '--open')).toBe(0);
    expect(cmd.out.some((line) => line.startsWith(`${number}  `) && line.includes('  open  ') && line.includes('top-up'))).toBe(true);

    expect(await cmd.run('invoice-paid', number)).toBe(0);
    expect(cmd.out.at(-1)).toBe(`Invoice ${number} is paid: the top-up of ${actor.user.email.toLowerCase()} is added to its storage.`);
    expect(await currentPlanOf(actor)).toBe('pebble');
    const row = await env.db.selectFrom('invoices').select(['status', 'paid_at']).where('number', '=', number).executeTakeFirstOrThrow();
    expect(row.status).toBe('paid');
    expect(row.paid_at).not.toBeNull();

    cmd.out.length = 0;
    expect(await cmd.run('invoices', '--open')).toBe(0);
    expect(cmd.out.some((line) => line.startsWith(`${number}  `))).toBe(false);
    expect(await cmd.run('invoices')).toBe(0);
    expect(cmd.out.some((line) => line.startsWith(`${number}  `) && line.includes('  paid  '))).toBe(true);
  });

  it('[R116] invoices come 5 a page, newest first, with has_more; `after` continues; each account sees only its own', async () => {
    const { actor, invoice } = await subscribed();
    const start = env.clock.now();
    const ids = [invoice.id];
    // Six more, one of them in the same millisecond as another (the id breaks the tie).
    for (let i = 1; i <= 6; i += 1) ids.push(await insertInvoice(actor.userId, `CAIRN-P${crypto.randomInt(100_000, 999_999)}${i}`, start + Math.min(i, 5) * 1000));
    const bob = await VaultActor.create(env, api);
    await insertInvoice(bob.userId, `CAIRN-B${crypto.randomInt(100_000, 999_999)}`, start + 10_000);

    const first = await pageOf(actor);
    expect(first.data).toHaveLength(5);
    expect(first.has_more).toBe(true);
    const second = await pageOf(actor, `?limit=5&after=${first.data.at(-1)!.id}`);
    expect(second.has_more).toBe(false);
    const all = [...first.data, ...second.data];
    expect(new Set(all.map((entry) => entry.id))).toEqual(new Set(ids));
    expect(all).toHaveLength(7);
    const created = all.map((entry) => entry.created);
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    expect(all.at(-1)!.id).toBe(invoice.id);

    // Bob sees his one invoice and none of Ada's, and cannot page from one of hers.
    const bobs = await pageOf(bob);
    expect(bobs.data.map((entry) => entry.number)).toEqual([expect.stringMatching(/^CAIRN-B/)]);
    expect(bobs.has_more).toBe(false);
    expectError(await api.get(`/api/billing/invoices?after=${invoice.id}`, { token: bob.token }), 404, 'NOT_FOUND');
    // A new account has none (the Invoices tab's empty state).
    expect(await pageOf(await VaultActor.create(env, api))).toEqual({ data: [], has_more: false });
    expectError(await api.get('/api/billing/invoices?limit=0', { token: bob.token }), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/api/billing/invoices?limit=5&sort=asc', { token: bob.token }), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/api/billing/invoices'), 401, 'UNAUTHENTICATED');
  });

  it("[R116] the owner downloads the invoice as a PDF named from its number, showing its figures, the issuer and the customer; another account's is NOT_FOUND", async () => {
    const { actor, invoice } = await subscribed();
    const response = await pdfOf(actor, invoice.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${invoice.number}.pdf"`);
    const bytes = response.rawPayload;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(bytes);
    const date = new Date(invoice.created * 1000).toISOString().slice(0, 10);
    for (const expected of [
      `Invoice ${invoice.number}`,
      `Date: ${date}`,
      'Status: open. Amount due: €6.75',
      'Cairn Hosting Ltd',
      'IBAN: GB33 BUKB 2020 1555 5555 55',
      'Ada Lovelace',
      'Analytical Engines Ltd',
      'Tax ID: GB123',
      'SW1Y 4JH London',
      'Boulder (monthly)',
      'Subtotal',
      '€9',
      'Discount (SPRING25)',
      '-€2.25',
      'VAT (20% included)',
      '€1.13',
      'Total (EUR)',
      '€6.75',
    ]) {
      expect(text).toContain(expected);
    }

    const bob = await VaultActor.create(env, api);
    const stolen = await pdfOf(bob, invoice.id);
    expect(stolen.statusCode).toBe(404);
    expect(JSON.parse(stolen.body)).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect((await pdfOf(bob, crypto.randomUUID())).statusCode).toBe(404);
    expect((await api.app.inject({ method: 'GET', url: `/api/billing/invoices/${invoice.id}/pdf` })).statusCode).toBe(401);

    // Paid, the PDF says so.
    expect(await admin().run('invoice-paid', invoice.number)).toBe(0);
    const paid = await pdfText((await pdfOf(actor, invoice.id)).rawPayload);
    expect(paid).toContain(`Status: paid on ${new Date(env.clock.now()).toISOString().slice(0, 10)}`);
    expect(paid).not.toContain('Amount due');
  });

  it('[R116] names in any script do not break the PDF: letters the standard font lacks lose their accent or become ?', async () => {
    const actor = await VaultActor.create(env, api);
    const details = { ...GOOD, name: 'Łukasz Żółć 李雷 😀 Ωmega', companyName: '<script>alert(1)</script> (Ltd) \\', city: 'Kraków', country: 'Polska' };
    expectStatus(await api.request('PUT', '/api/billing/details', details, { token: actor.token }), 200);
    const invoice = Invoice.parse((await api.post('/api/billing/subscriptions', SUBSCRIBE, { token: actor.token })).body);
    const response = await pdfOf(actor, invoice.id);
    expect(response.statusCode).toBe(200);
    const strings = await pdfStrings(response.rawPayload);
    expect(strings).toContain('Lukasz Zólc ?? ? ?mega');
    expect(strings).toContain('<script>alert(1)</script> (Ltd) \\');
    expect(strings.join('\n')).toContain('SW1Y 4JH Kraków');
    expect(strings).toContain(`Invoice ${invoice.number}`);
  });

  it('[R117] ending a subscription returns the account to the free plan at once: its vaults stay, new ones past the limit are refused', async () => {
    const pebbleUser = await VaultActor.create(env, api);
    const nothing = await api.request('DELETE', '/api/billing/subscription', undefined, { token: pebbleUser.token });
    expectError(nothing, 422, 'UNPROCESSABLE');
    expect(JSON.stringify(nothing.body)).toContain('You are on Pebble: there is no subscription to end.');

    const { actor, invoice } = await subscribed();
    expect(await admin().run('invoice-paid', invoice.number)).toBe(0);
    const vaults = [];
    for (let i = 0; i < 4; i += 1) vaults.push(await actor.createVault());

    const ended = await api.request('DELETE', '/api/billing/subscription', undefined, { token: actor.token });
    expectStatus(ended, 200);
    expect(EndSubscriptionResponse.parse(ended.body)).toEqual({ planId: 'pebble', planName: 'Pebble' });
    expect(await currentPlanOf(actor)).toBe('pebble');
    // The four vaults stay (Pebble allows three); a fifth is refused.
    const owned = await env.db.selectFrom('vaults').select('id').where('id', 'in', vaults).execute();
    expect(owned).toHaveLength(4);
    const fifth = newId();
    expectRejected(await actor.apply(fifth, fifth, privateVaultBody()), 'VAULT_LIMIT');
    // The paid invoice stays in the list; ending twice is refused.
    expect((await pageOf(actor)).data.map((entry) => [entry.number, entry.status])).toEqual([[invoice.number, 'paid']]);
    expectError(await api.request('DELETE', '/api/billing/subscription', undefined, { token: actor.token }), 422, 'UNPROCESSABLE');
    expectError(await api.request('DELETE', '/api/billing/subscription'), 401, 'UNAUTHENTICATED');
  });
});
