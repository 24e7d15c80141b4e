/**
 * GET /api/utoken/price (SYNC_SPEC R121): the dollar price of 1 U from the operator's price source
 * (TOKEN_PRICE_URL, a real local HTTP server here), asked at most once per 30 s; null without a
 * source or when it fails, so the Rewards page can say it cannot display the dollar value. Both
 * databases.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TokenPrice } from '../../src/protocol/ledger';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { VaultActor } from '../testing/vaults';

/** The price source: answers `answer` (a body, or a status with no price). */
let answer: { status: number; body: string } = { status: 200, body: '{"usd":0.25}' };
let asked = 0;
let sourceUrl = '';
const source = http.createServer((_request, response) => {
  asked += 1;
  response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
});

beforeAll(async () => {
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/price/U`;
});
afterAll(() => new Promise<void>((resolve) => source.close(() => resolve())));

describeEachDatabase('the U token price (R121)', (env) => {
  it('[R121] answers the source\'s dollar price, asks the source at most every 30 s, and null when it fails', async () => {
    answer = { status: 200, body: '{"usd":0.25}' };
    asked = 0;
    const app = await env.buildApp({ config: { tokenPriceUrl: sourceUrl } });
    const api = new ApiClient(app);
    const user = await VaultActor.create(env, api);
    const price = async () => {
      const response = await api.get('/api/utoken/price', { token: user.token });
      expectStatus(response, 200);
      return TokenPrice.parse(response.body);
    };
    expect(await price()).toEqual({ usd: 0.25 });
    answer = { status: 200, body: '{"usd":0.5}' };
    expect(await price()).toEqual({ usd: 0.25 });
    expect(asked).toBe(1);
    env.clock.advance(30_001);
    expect(await price()).toEqual({ usd: 0.5 });
    expect(asked).toBe(2);
    // A failing source, then one answering something else: no price (the page says so).
    answer = { status: 503, body: '{"usd":0.7}' };
    env.clock.advance(30_001);
    expect(await price()).toEqual({ usd: null });
    answer = { status: 200, body: '{"price":"cheap"}' };
    env.clock.advance(30_001);
    expect(await price()).toEqual({ usd: null });
    answer = { status: 200, body: '{"usd":0.3}' };
    env.clock.advance(30_001);
    expect(await price()).toEqual({ usd: 0.3 });
    await app.close();
  });

  it('[R121] without TOKEN_PRICE_URL the price is null and nothing is asked', async () => {
    asked = 0;
    const app = await env.buildApp();
    const api = new ApiClient(app);
    const user = await VaultActor.create(env, api);
    const response = await api.get('/api/utoken/price', { token: user.token });
    expectStatus(response, 200);
    expect(response.body).toEqual({ usd: null });
    expect(asked).toBe(0);
    await app.close();
  });
});
