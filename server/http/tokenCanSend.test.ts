/**
 * GET /api/utoken says whether the caller's plan lets them send $U (SYNC_SPEC R110), so the Send $U
 * modal can disable Send before the user types anything (spec 002 section 5: "disabled ... on the
 * free plan with storage total of 100,000,000 or less"): the answer agrees with what the transfer
 * route then does. Both databases.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { TokenBalance, transferSigningPayload } from '../../src/protocol/ledger';
import { type Config, loadConfig } from '../config';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { VaultActor } from '../testing/vaults';

const FREE = { tiers: [{ flat_amount: 0, unit_amount_decimal: '0' }] };
const PAID = { tiers: [{ flat_amount: 1000, unit_amount_decimal: '0' }] };
const PLANS = {
  default_plan: 'pebble',
  plans: [
    { id: 'pebble', name: 'Pebble', price: { currency_options: { eur: FREE, usd: FREE, gbp: FREE } }, metadata: { app_features: 'vaults' }, storage: { permanent_bytes: 100_000_000, cloud_bytes: 1_000_000_000 }, limits: { vaults: null, members: null } },
    { id: 'boulder', name: 'Boulder', price: { currency_options: { eur: PAID, usd: PAID, gbp: PAID } }, metadata: { app_features: 'vaults' }, storage: { permanent_bytes: 9_000_000, cloud_bytes: 50_000_000 }, limits: { vaults: null, members: null } },
  ],
};

function plansConfig(extra: Record<string, string> = {}): Partial<Config> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-plans-')), 'plans.json');
  fs.writeFileSync(file, JSON.stringify(PLANS));
  const { plans, storageAllowances, memberLimit } = loadConfig({ PLANS_FILE: file, ...extra });
  return { plans, storageAllowances, memberLimit };
}

describeEachDatabase('GET /api/utoken: whether the caller may send (R110)', (env) => {
  it('[R110] canSend is false on the free plan at 100,000,000 bytes, true on a paid plan or over the threshold, and the transfer route agrees', async () => {
    const app = await env.buildApp({ config: plansConfig() });
    const api = new ApiClient(app);
    const sender = await VaultActor.create(env, api);
    const receiver = await VaultActor.create(env, api);
    const announce = await env.db.transaction().execute((trx) =>
      app.services.ledger.creditRewards(trx, [{ id: crypto.randomUUID(), kind: 'version', size: 5 * 1024 * 1024, uploader_user_id: sender.userId }]),
    );
    announce();
    const read = async () => {
      const response = await api.get('/api/utoken', { token: sender.token });
      expectStatus(response, 200);
      return TokenBalance.parse(response.body);
    };
    const send = async () => {
      const unsigned = { id: crypto.randomUUID(), from: sender.user.address, fromKey: sender.user.publicSigningKey, to: receiver.user.address, amount: '1' };
      return api.post('/api/utoken/transfers', { ...unsigned, signature: await sender.user.sign(transferSigningPayload(unsigned)) }, { token: sender.token });
    };

    // Pebble: free, exactly 100,000,000 bytes of permanent storage (not over it).
    expect(await read()).toMatchObject({ address: sender.user.address, balance: '5000000', canSend: false });
    expectError(await send(), 403, 'TOKEN_SEND_NOT_ALLOWED');

    // Boulder: paid, although its 9,000,000 bytes are under the threshold.
    await env.db.updateTable('users').set({ plan_id: 'boulder' }).where('id', '=', sender.userId).execute();
    expect((await read()).canSend).toBe(true);
    expectStatus(await send(), 201);
    await app.close();

    // The free plan with more than the threshold (PERMANENT_STORAGE_BYTES replaces the default plan's figure).
    const roomy = await env.buildApp({ config: plansConfig({ PERMANENT_STORAGE_BYTES: '200000000' }) });
    const roomyApi = new ApiClient(roomy);
    const other = await VaultActor.create(env, roomyApi);
    const response = await roomyApi.get('/api/utoken', { token: other.token });
    expectStatus(response, 200);
    expect(TokenBalance.parse(response.body)).toMatchObject({ balance: '0', canSend: true });
    await roomy.close();
  });
});
