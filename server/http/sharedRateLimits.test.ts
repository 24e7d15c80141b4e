/**
 * Issue 20, several processes on one PostgreSQL: the rate limits and the per-account minute
 * budgets are counted in the database (server/http/rateCounters.ts, migration 0013), so requests
 * split between two processes reach the limit together; N processes do not give N times the
 * allowance. Each app below is what one process builds; SQLite is one process by design, so
 * there both halves of the traffic go through the one app (the single-process path).
 */
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { ApiError } from '../../src/protocol/errors';
import { openDatabase } from '../db/openDatabase';
import { describeEachDatabase } from '../testing/databases';
import { TestUser } from '../testing/TestUser';
import { createMinuteBudget } from './minuteBudget';
import { DatabaseRateCounters, MemoryRateCounters } from './rateCounters';

const LIMIT = 4;

async function post(app: FastifyInstance, url: string, body: unknown): Promise<number> {
  const response = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return response.statusCode;
}

describeEachDatabase('rate limits shared by the processes on one database', (env) => {
  /** Two processes on PostgreSQL; on SQLite the one process twice. */
  async function twoProcesses(): Promise<[FastifyInstance, FastifyInstance]> {
    const one = await env.buildApp({ config: { authRateLimit: LIMIT } });
    const two = env.databaseUrl ? await env.buildApp({ config: { authRateLimit: LIMIT } }) : one;
    return [one, two];
  }

  it('the per-address auth limit is reached by requests split between two processes together', async () => {
    const apps = await twoProcesses();
    const answers: number[] = [];
    for (let n = 0; n <= LIMIT + 1; n += 1) answers.push(await post(apps[n % 2]!, '/api/auth/verify-email/resend', { email: `split${n}@example.com` }));
    expect(answers).toEqual([...Array<number>(LIMIT).fill(200), 429, 429]);
  });

  it('the per-account login limit is reached across two processes, whatever the address', async () => {
    const apps = await twoProcesses();
    const victim = await TestUser.create();
    const answers: number[] = [];
    for (let n = 0; n <= LIMIT; n += 1) {
      const response = await apps[n % 2]!.inject({
        method: 'POST',
        url: '/api/auth/login/start',
        // Each attempt from another address, so only the per-account limit can stop the fifth.
        remoteAddress: `198.51.100.${n + 1}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: victim.email, startLoginRequest: victim.startLogin('guess').startLoginRequest }),
      });
      answers.push(response.statusCode);
    }
    expect(answers).toEqual([...Array<number>(LIMIT).fill(200), 429]);
  });

  it('a per-account minute budget counted in the database is one budget for every process; another account and the next minute go on', async () => {
    // Two processes' own connections to the one database (on SQLite the one connection).
    const secondDb = env.databaseUrl ? openDatabase({ databaseUrl: env.databaseUrl, sqlitePath: '' }).db : env.db;
    try {
      let now = 1_000_000;
      const budgets = [env.db, secondDb].map((db) => createMinuteBudget(LIMIT, 'Too many', () => now, { counters: new DatabaseRateCounters(db), name: 'test' }));
      for (let n = 0; n < LIMIT; n += 1) await budgets[n % 2]!('alice');
      await expect(budgets[0]!('alice')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
      await expect(budgets[1]!('alice')).rejects.toBeInstanceOf(ApiError);
      await budgets[1]!('bob');
      now += 60_000;
      await budgets[0]!('alice');
      // Budgets of different names do not share a count.
      const other = createMinuteBudget(LIMIT, 'Too many', () => now, { counters: new DatabaseRateCounters(secondDb), name: 'other' });
      for (let n = 0; n < LIMIT; n += 1) await other('alice');
    } finally {
      if (secondDb !== env.db) await secondDb.destroy();
    }
  });

  it('in memory (one process) the budget counts the same way', async () => {
    let now = 0;
    const spend = createMinuteBudget(2, 'Too many', () => now, { counters: new MemoryRateCounters(), name: 'm' });
    await spend('a');
    await spend('a');
    await expect(spend('a')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    now += 60_000;
    await spend('a');
  });
});
