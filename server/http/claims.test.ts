/**
 * Claims of $U to an outside Arweave address (SYNC_SPEC R120): only with a paid invoice; the
 * amount leaves the balance as a signed 'claim' entry that any client's replay of the chain
 * agrees with; forged, replayed and over-the-balance claims are refused and change nothing; the
 * operator lists and settles them with `npm run admin`. Both databases.
 */
import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { replayLedger } from '../../src/crypto/ledger';
import { ClaimList, ClaimResult } from '../../src/protocol/claims';
import { claimSigningPayload, LEDGER_TEXTS, LedgerEntryPage, LedgerInfo, TokenBalance, transferSigningPayload } from '../../src/protocol/ledger';
import { type AdminLog, AdminService } from '../admin/AdminService';
import { runAdminCommand } from '../admin/adminCommand';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { insertInvoice } from '../testing/invoiceRows';
import { VaultActor } from '../testing/vaults';

const MIB = 1024 * 1024;
/** An outside Arweave wallet: 43 characters, no Cairn account's. */
const OUTSIDE = 'Outside-Arweave-Wallet_0123456789abcdefghij';
const TX_ID = 'Settled-Arweave-Transaction_0123456789abcde';

describeEachDatabase('claims of $U (R120)', (env) => {
  it('[R120] only a user with a paid invoice may claim; the claim takes the amount out of the balance, replays on the client, and the operator settles it', async () => {
    const app = await env.buildApp();
    const api = new ApiClient(app);
    const claimant = await VaultActor.create(env, api);
    const other = await VaultActor.create(env, api);
    const announce = await env.db.transaction().execute((trx) =>
      app.services.ledger.creditRewards(trx, [{ id: crypto.randomUUID(), kind: 'version', size: 3 * MIB, uploader_user_id: claimant.userId }]),
    );
    announce();
    const balance = async (actor = claimant) => TokenBalance.parse((await api.get('/api/utoken', { token: actor.token })).body).balance;
    const list = async () => ClaimList.parse((await api.get('/api/claims', { token: claimant.token })).body);
    const claim = async (fields: { to?: string; amount?: string; id?: string } = {}, signer = claimant, sign = claimSigningPayload) => {
      const unsigned = { id: fields.id ?? crypto.randomUUID(), from: claimant.user.address, fromKey: signer.user.publicSigningKey, to: fields.to ?? OUTSIDE, amount: fields.amount ?? '1500000' };
      const body = { ...unsigned, signature: await signer.user.sign(sign(unsigned)) };
      return { body, response: await api.post('/api/claims', body, { token: claimant.token }) };
    };

    // No invoice, then only an open one: not eligible, and a claim is refused.
    expect(await list()).toEqual({ eligible: false, items: [] });
    await insertInvoice(env.db, claimant.userId, 'open');
    expect((await list()).eligible).toBe(false);
    const refused = await claim();
    expectError(refused.response, 403, 'CLAIM_NOT_ALLOWED');
    expect(JSON.stringify(refused.response.body)).toContain('needs a paid invoice');
    expect(await balance()).toBe('3000000');

    // Paid (written straight to the database, as the operator's invoice-paid command would).
    await insertInvoice(env.db, claimant.userId, 'paid');
    expect((await list()).eligible).toBe(true);
    const made = await claim();
    expectStatus(made.response, 201);
    const result = ClaimResult.parse(made.response.body);
    expect(result.claim).toMatchObject({ id: made.body.id, address: OUTSIDE, amount: '1500000', status: 'open', txId: null });
    expect(result.entry).toMatchObject({ kind: 'claim', from: claimant.user.address, to: OUTSIDE, amount: '1500000' });
    expect(result.balance).toBe('1500000');
    expect(await balance()).toBe('1500000');

    // Refused, changing nothing: the same claim again, a transfer's signature, another user's key,
    // more than the balance, a bad address, a Cairn account's address.
    expectError((await api.post('/api/claims', made.body, { token: claimant.token })), 409, 'CONFLICT');
    expectError((await claim({}, claimant, transferSigningPayload)).response, 403, 'INVALID_SIGNATURE');
    expectError((await claim({}, other)).response, 403, 'FORBIDDEN');
    const over = await claim({ amount: '1500001' });
    expectError(over.response, 422, 'AMOUNT_EXCEEDS_BALANCE');
    const badAddress = await claim({ to: 'too-short' });
    expect(badAddress.response.status).toBe(400);
    expect(JSON.stringify(badAddress.response.body)).toContain(LEDGER_TEXTS.badAddress);
    expectError((await claim({ to: other.user.address })).response, 400, 'BAD_REQUEST');
    // Someone else's session cannot claim out of the claimant's address either.
    const unsigned = { id: crypto.randomUUID(), from: claimant.user.address, fromKey: claimant.user.publicSigningKey, to: OUTSIDE, amount: '1' };
    const stolen = { ...unsigned, signature: await claimant.user.sign(claimSigningPayload(unsigned)) };
    expectError(await api.post('/api/claims', stolen, { token: other.token }), 403, 'CLAIM_NOT_ALLOWED');
    await insertInvoice(env.db, other.userId, 'paid');
    expectError(await api.post('/api/claims', stolen, { token: other.token }), 403, 'FORBIDDEN');
    expect(await balance()).toBe('1500000');
    expect(await env.db.selectFrom('claims').select('id').execute()).toHaveLength(1);

    // A client replays the whole served chain to the same balance; the outside address holds nothing in it.
    const info = LedgerInfo.parse((await api.get('/api/ledger', { token: claimant.token })).body);
    const page = LedgerEntryPage.parse((await api.get('/api/ledger/entries?after=0&limit=200', { token: claimant.token })).body);
    const replay = await replayLedger(page.items, { serverKey: info.serverKey });
    expect(replay.bad).toBeNull();
    expect(replay.balances.get(claimant.user.address)).toBe(1500000n);
    expect(replay.balances.get(OUTSIDE)).toBeUndefined();

    // The operator: lists the open claim, settles it with its transaction id, and it is recorded.
    const out: string[] = [];
    const err: string[] = [];
    const log: AdminLog = { info: () => undefined };
    const admin = new AdminService(env.db, env.clock, log, 'operator');
    const run = (...argv: string[]) => runAdminCommand(argv, admin, { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(await run('claims', '--open')).toBe(0);
    expect(out.at(-1)).toContain(`${made.body.id}`);
    expect(out.at(-1)).toContain(`1.5 U to ${OUTSIDE}`);
    expect(await run('claim-settled', made.body.id, 'not-a-tx')).toBe(1);
    expect(await run('claim-settled', made.body.id, TX_ID)).toBe(0);
    expect(await run('claim-settled', made.body.id, TX_ID)).toBe(1);
    expect(err.at(-1)).toContain('already settled');
    expect(await run('claims', '--open')).toBe(0);
    expect(out.at(-1)).toBe('No claims.');
    expect((await list()).items).toEqual([expect.objectContaining({ id: made.body.id, status: 'settled', txId: TX_ID })]);
    expect((await admin.actions()).map((a) => [a.action, a.target, a.details])).toEqual([['claim-settled', made.body.id, { txId: TX_ID }]]);
    // Settling moves nothing in the ledger: the claim's entry already took the amount out.
    expect(await balance()).toBe('1500000');
    await app.close();
  });
});
