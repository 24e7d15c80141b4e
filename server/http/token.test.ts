/**
 * The U token's ledger through the API (docs/SYNC_SPEC.md R105-R109): signed transfers between two
 * accounts, what is refused (forged, replayed, overdrawn, badly addressed, not allowed by the
 * plan) and that a refusal changes nothing, concurrent transfers, the balance pushed to both
 * users' sockets, and a client's replay of the served chain. Balances are seeded through the
 * relay's own port (`creditRewards`), as a committed upload credits them (tokenRewards.test.ts
 * drives the real relay).
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { replayLedger } from '../../src/crypto/ledger';
import { LedgerEntryPage, LedgerInfo, TokenBalance, transferSigningPayload, TransferResult } from '../../src/protocol/ledger';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase, describePostgres, type TestEnv } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { VaultActor } from '../testing/vaults';
import { startServerProcess } from '../testing/serverProcess';
import { connectSocket } from '../testing/wsClient';

const MIB = 1024 * 1024;
/** Over the free plan's 100,000,000 bytes: these accounts may send (spec 002 section 5). */
const ALLOWS_SENDING = { storageAllowances: { cloud: 1_000_000_000, permanent: 200_000_000 } };

describeEachDatabase('the U token ledger', (env: TestEnv) => {
  let app: FastifyInstance;
  let api: ApiClient;

  beforeAll(async () => {
    app = await env.buildApp({ config: ALLOWS_SENDING });
    api = new ApiClient(app);
  });

  /** Credits `actor` `micro` millionths of a U as a committed upload of that many bytes would at 1 U per MiB. */
  async function reward(actor: VaultActor, micro: number): Promise<void> {
    const announce = await env.db.transaction().execute((trx) =>
      app.services.ledger.creditRewards(trx, [{ id: crypto.randomUUID(), kind: 'version', size: (micro * MIB) / 1_000_000, uploader_user_id: actor.userId }]),
    );
    announce();
  }

  async function balanceOf(actor: VaultActor, target = api): Promise<string> {
    const response = await target.get('/api/utoken', { token: actor.token });
    expectStatus(response, 200);
    return TokenBalance.parse(response.body).balance;
  }

  async function transfer(from: VaultActor, to: string, amount: string, options: { id?: string; target?: ApiClient } = {}) {
    const unsigned = { id: options.id ?? crypto.randomUUID(), from: from.user.address, fromKey: from.user.publicSigningKey, to, amount };
    const body = { ...unsigned, signature: await from.user.sign(transferSigningPayload(unsigned)) };
    return { body, response: await (options.target ?? api).post('/api/utoken/transfers', body, { token: from.token }) };
  }

  async function ledgerState() {
    const info = LedgerInfo.parse((await api.get('/api/ledger', { token: (await actors()).alice.token })).body);
    const entries = await env.db.selectFrom('ledger_entries').select('seq').execute();
    const balances = await env.db.selectFrom('ledger_balances').selectAll().orderBy('address').execute();
    return { info, count: entries.length, balances };
  }

  let pair: { alice: VaultActor; bob: VaultActor } | null = null;
  async function actors() {
    pair ??= { alice: await VaultActor.create(env, api), bob: await VaultActor.create(env, api) };
    return pair;
  }

  it('[R108] a signed transfer moves U from the sender to the recipient, and both see it', async () => {
    const { alice, bob } = await actors();
    await reward(alice, 2_000_000);
    expect(await balanceOf(alice)).toBe('2000000');
    const { response, body } = await transfer(alice, bob.user.address, '750000');
    expectStatus(response, 201);
    const result = TransferResult.parse(response.body);
    expect(result.balance).toBe('1250000');
    expect(result.entry).toMatchObject({ id: body.id, kind: 'transfer', from: alice.user.address, to: bob.user.address, amount: '750000', reason: null });
    expect(await balanceOf(alice)).toBe('1250000');
    expect(await balanceOf(bob)).toBe('750000');
    const bobs = LedgerEntryPage.parse((await api.get('/api/utoken/entries', { token: bob.token })).body);
    expect(bobs.items.map((e) => e.id)).toEqual([body.id]);
    const alices = LedgerEntryPage.parse((await api.get('/api/utoken/entries?limit=1', { token: alice.token })).body);
    expect(alices.items.map((e) => e.kind)).toEqual(['transfer']);
    expect(alices.next).toBe(result.entry.seq);
    const older = LedgerEntryPage.parse((await api.get(`/api/utoken/entries?before=${alices.next}`, { token: alice.token })).body);
    expect(older.items.map((e) => e.kind)).toEqual(['reward']);
  });

  it('[R106] a client replays the served chain with the server key and gets the balances it is shown', async () => {
    const { alice, bob } = await actors();
    const info = LedgerInfo.parse((await api.get('/api/ledger', { token: bob.token })).body);
    const entries = [];
    let after = 0;
    for (;;) {
      const page = LedgerEntryPage.parse((await api.get(`/api/ledger/entries?after=${after}&limit=1`, { token: bob.token })).body);
      entries.push(...page.items);
      if (page.next === null) break;
      after = page.next;
    }
    const replay = await replayLedger(entries, { serverKey: info.serverKey });
    expect(replay.bad).toBeNull();
    expect(replay.headSeq).toBe(info.headSeq);
    expect(replay.headHash).toBe(info.headHash);
    expect(String(replay.balances.get(alice.user.address))).toBe(await balanceOf(alice));
    expect(String(replay.balances.get(bob.user.address))).toBe(await balanceOf(bob));
  });

  it('[R106] a forged transfer (its amount changed after signing, another key, another sender) is refused and changes nothing', async () => {
    const { alice, bob } = await actors();
    // Bob signs 1 millionth to Alice (accepted), then the same with the amount raised.
    const { body, response } = await transfer(bob, alice.user.address, '1');
    expectStatus(response, 201);
    const before = await ledgerState();
    const raised = { ...body, id: crypto.randomUUID() };
    const small = { ...raised, signature: await bob.user.sign(transferSigningPayload(raised)) };
    expectError(await api.post('/api/utoken/transfers', { ...small, amount: '500000' }, { token: bob.token }), 403, 'INVALID_SIGNATURE');
    // Bob signs with his key a transfer out of Alice's address, through his session and through hers.
    const theft = { id: crypto.randomUUID(), from: alice.user.address, fromKey: alice.user.publicSigningKey, to: bob.user.address, amount: '1000' };
    const stolen = { ...theft, signature: await bob.user.sign(transferSigningPayload(theft)) };
    expectError(await api.post('/api/utoken/transfers', stolen, { token: bob.token }), 403, 'FORBIDDEN');
    expectError(await api.post('/api/utoken/transfers', stolen, { token: alice.token }), 403, 'INVALID_SIGNATURE');
    // Someone else's key named as the sender's.
    const named = { ...theft, fromKey: bob.user.publicSigningKey };
    expectError(await api.post('/api/utoken/transfers', { ...named, signature: await bob.user.sign(transferSigningPayload(named)) }, { token: bob.token }), 403, 'FORBIDDEN');
    expect(await ledgerState()).toEqual(before);
    expect(await balanceOf(alice)).toBe('1250001');
    expect(await balanceOf(bob)).toBe('749999');
  });

  it('[R107] a replayed transfer (the same signed body again) is refused and changes nothing', async () => {
    const { alice, bob } = await actors();
    const { body, response } = await transfer(alice, bob.user.address, '1000');
    expectStatus(response, 201);
    const before = await ledgerState();
    const again = await api.post('/api/utoken/transfers', body, { token: alice.token });
    expectError(again, 409, 'CONFLICT');
    // The same id with other content, signed: still the id of an entry the ledger holds.
    const other = { ...body, amount: '2000' };
    expectError(await api.post('/api/utoken/transfers', { ...other, signature: await alice.user.sign(transferSigningPayload(other)) }, { token: alice.token }), 409, 'CONFLICT');
    expect(await ledgerState()).toEqual(before);
  });

  it("[R108] more than the balance is refused with the spec's text and changes nothing", async () => {
    const { alice, bob } = await actors();
    const held = await balanceOf(alice);
    const before = await ledgerState();
    const { response } = await transfer(alice, bob.user.address, String(BigInt(held) + 1n));
    expectError(response, 422, 'AMOUNT_EXCEEDS_BALANCE');
    expect(response.body).toMatchObject({ error: { message: 'Amount exceeds total balance.' } });
    expect(await ledgerState()).toEqual(before);
    expect(await balanceOf(alice)).toBe(held);
  });

  it('[R108] amounts that are not positive whole millionths and recipients that are not Cairn addresses are 400 and change nothing', async () => {
    const { alice, bob } = await actors();
    const before = await ledgerState();
    for (const amount of ['0', '-5', '1.5', '01', '', '1000000000000000000']) {
      expectError((await transfer(alice, bob.user.address, amount)).response, 400, 'VALIDATION_FAILED');
    }
    const bad = (await transfer(alice, 'not-an-address', '1')).response;
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(JSON.stringify(bad.body)).toContain('Incorrect format for an Arweave wallet address.');
    // 43 characters of the right alphabet, but no account here has it.
    expectError((await transfer(alice, 'A'.repeat(43), '1')).response, 400, 'BAD_REQUEST');
    expectError((await transfer(alice, alice.user.address, '1')).response, 400, 'BAD_REQUEST');
    expect(await ledgerState()).toEqual(before);
  });

  it('[R108] under 0.0001 U, or on the free plan with 100,000,000 bytes of permanent storage or less, sending is refused', async () => {
    const { alice } = await actors();
    const poor = await VaultActor.create(env, api);
    await reward(poor, 99);
    const before = await ledgerState();
    expectError((await transfer(poor, alice.user.address, '1')).response, 403, 'TOKEN_SEND_NOT_ALLOWED');
    const free = await env.buildApp();
    const freeApi = new ApiClient(free);
    await reward(poor, 1_000_000);
    const after = await ledgerState();
    expect(after.count).toBe(before.count + 1);
    expectError((await transfer(poor, alice.user.address, '1', { target: freeApi })).response, 403, 'TOKEN_SEND_NOT_ALLOWED');
    expect(await ledgerState()).toEqual(after);
    await free.close();
    expectStatus((await transfer(poor, alice.user.address, '1')).response, 201);
  });

  it('[R108] transfers that together overdraw, sent at once through two server processes: only what the balance covers is accepted', async () => {
    const { alice, bob } = await actors();
    const carol = await VaultActor.create(env, api);
    await reward(carol, 1_000_000);
    const second = new ApiClient(await env.buildApp({ config: ALLOWS_SENDING }));
    // Six of 0.4 U from 1 U, signed first and then sent together: two fit.
    const signed = await Promise.all(
      Array.from({ length: 6 }, async (_, index) => {
        const unsigned = { id: crypto.randomUUID(), from: carol.user.address, fromKey: carol.user.publicSigningKey, to: index % 2 ? alice.user.address : bob.user.address, amount: '400000' };
        return { ...unsigned, signature: await carol.user.sign(transferSigningPayload(unsigned)) };
      }),
    );
    const responses = await Promise.all(signed.map((body, index) => (index % 2 ? second : api).post('/api/utoken/transfers', body, { token: carol.token })));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 422, 422, 422, 422]);
    expect(await balanceOf(carol)).toBe('200000');
    const { info } = await ledgerState();
    const all = LedgerEntryPage.parse((await api.get('/api/ledger/entries?limit=200', { token: carol.token })).body).items;
    const replay = await replayLedger(all, { serverKey: info.serverKey });
    expect(replay.bad).toBeNull();
    expect(replay.headSeq).toBe(info.headSeq);
    expect(replay.balances.get(carol.user.address)).toBe(200000n);
  });

  it('[R109] a transfer pushes the new balances to the sender’s and the recipient’s sockets', async () => {
    const { alice, bob } = await actors();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const url = `ws://127.0.0.1:${address.port}/api/ws`;
    const [aliceSocket, bobSocket] = [connectSocket(`${url}?token=${alice.token}`), connectSocket(`${url}?token=${bob.token}`)];
    for (const socket of [aliceSocket, bobSocket]) {
      await socket.opened;
      await socket.waitFor((m) => m.type === 'hello');
    }
    const { response } = await transfer(alice, bob.user.address, '5000');
    expectStatus(response, 201);
    const { entry } = TransferResult.parse(response.body);
    const heard = (m: { type: string }) => m.type === 'tokenBalance';
    expect(await aliceSocket.waitFor(heard)).toEqual({ type: 'tokenBalance', balance: await balanceOf(alice), headSeq: entry.seq });
    expect(await bobSocket.waitFor(heard)).toEqual({ type: 'tokenBalance', balance: await balanceOf(bob), headSeq: entry.seq });
    for (const socket of [aliceSocket, bobSocket]) socket.socket.close();
  });

  it('[R108] transfers are rate-limited per account and closed while the server is read-only, changing nothing', async () => {
    const { alice, bob } = await actors();
    const limited = new ApiClient(await env.buildApp({ config: { ...ALLOWS_SENDING, authRateLimit: 2 } }));
    expectStatus((await transfer(alice, bob.user.address, '1', { target: limited })).response, 201);
    expectStatus((await transfer(alice, bob.user.address, '1', { target: limited })).response, 201);
    const before = await ledgerState();
    expectError((await transfer(alice, bob.user.address, '1', { target: limited })).response, 429, 'RATE_LIMITED');
    const readOnly = new ApiClient(await env.buildApp({ config: { ...ALLOWS_SENDING, readOnly: true } }));
    expectError((await transfer(alice, bob.user.address, '1', { target: readOnly })).response, 403, 'READ_ONLY');
    expect(await ledgerState()).toEqual(before);
    await Promise.all([limited.app.close(), readOnly.app.close()]);
  });

  it('every ledger route needs a session', async () => {
    for (const url of ['/api/utoken', '/api/utoken/entries', '/api/ledger', '/api/ledger/entries']) expectError(await api.get(url), 401, 'UNAUTHENTICATED');
    expectError(await api.post('/api/utoken/transfers', {}), 401, 'UNAUTHENTICATED');
  });
});

describePostgres('U token balances across server processes (SYNC_SPEC R109)', (env) => {
  it('[R109] a transfer through one process reaches the recipient’s socket open on another, and the sender’s on the first', async () => {
    const app = await env.buildApp({ config: ALLOWS_SENDING });
    const api = new ApiClient(app);
    const [alice, bob] = [await VaultActor.create(env, api), await VaultActor.create(env, api)];
    await env.db.transaction().execute((trx) => app.services.ledger.creditRewards(trx, [{ id: crypto.randomUUID(), kind: 'version', size: MIB, uploader_user_id: alice.userId }]));
    const settings = { PERMANENT_STORAGE_BYTES: String(ALLOWS_SENDING.storageAllowances.permanent) };
    const [one, two] = await Promise.all([
      startServerProcess({ dataDir: env.dataDir, databaseUrl: env.databaseUrl, env: settings }),
      startServerProcess({ dataDir: env.dataDir, databaseUrl: env.databaseUrl, env: settings }),
    ]);
    try {
      const [aliceSocket, bobSocket] = [connectSocket(`${one.wsUrl}?token=${alice.token}`), connectSocket(`${two.wsUrl}?token=${bob.token}`)];
      for (const socket of [aliceSocket, bobSocket]) {
        await socket.opened;
        await socket.waitFor((m) => m.type === 'hello');
      }
      const unsigned = { id: crypto.randomUUID(), from: alice.user.address, fromKey: alice.user.publicSigningKey, to: bob.user.address, amount: '250000' };
      const response = await fetch(`${one.url}/api/utoken/transfers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...unsigned, signature: await alice.user.sign(transferSigningPayload(unsigned)) }),
      });
      expect(response.status).toBe(201);
      const { entry } = TransferResult.parse(await response.json());
      expect(await bobSocket.waitFor((m) => m.type === 'tokenBalance', 10_000)).toEqual({ type: 'tokenBalance', balance: '250000', headSeq: entry.seq });
      expect(await aliceSocket.waitFor((m) => m.type === 'tokenBalance', 10_000)).toEqual({ type: 'tokenBalance', balance: '750000', headSeq: entry.seq });
      for (const socket of [aliceSocket, bobSocket]) socket.socket.close();
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  }, 90_000);
});
