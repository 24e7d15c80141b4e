/**
 * DESIGN.md section 6: a bad request gets a typed 4xx and changes nothing. Every /api route,
 * found through the app's onRoute record (so a new route is swept without editing this file), gets
 * a battery of malformed requests, with and without a session.
 */
import { expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_STATUS, isErrorCode } from '../../src/protocol/errors';
import type { RouteInfo } from '../app';
import { TABLES } from '../db/Database';
import { ApiClient, type ApiResponse, errorCode } from '../testing/ApiClient';
import { describeEachDatabase, type TestEnv } from '../testing/databases';
import { newSession } from '../testing/flows';
import { readMailbox } from '../testing/mailbox';
import { createPrivateVault, inviteOp } from '../testing/members';
import { TestUser } from '../testing/TestUser';
import { membershipIdOf, VaultActor } from '../testing/vaults';

interface Probe {
  name: string;
  body?: string;
  query?: string;
  params?: Record<string, string>;
  contentType?: string;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const VALID_ADDRESS = 'A'.repeat(43);

/** The keys a route's body schema declares (none for routes without an object body). */
function bodyKeys(schema: z.ZodType | null): string[] {
  let current: unknown = schema;
  if (current instanceof z.ZodOptional) current = current.unwrap();
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

function objectWith(keys: string[], value: unknown): Record<string, unknown> {
  return Object.fromEntries((keys.length > 0 ? keys : ['unexpected']).map((key) => [key, value]));
}

function probesFor(route: RouteInfo): Probe[] {
  const probes: Probe[] = [{ name: 'unknown query', query: '?unknownParam=1&__proto__=x' }];
  for (const [, name] of route.url.matchAll(/:([A-Za-z]+)/g)) {
    if (!name) continue;
    probes.push({ name: `bad ${name}`, params: { [name]: name === 'index' ? '-1' : 'not-an-id!' } });
    probes.push({ name: `long ${name}`, params: { [name]: 'A'.repeat(5_000) } });
    probes.push({ name: `bad escape in ${name}`, params: { [name]: '%E0%A4%A' } });
  }
  if (!BODY_METHODS.has(route.method)) return probes;
  const schema = route.meta?.body ?? null;
  const keys = bodyKeys(schema);
  const candidates: [string, unknown][] = [
    ['wrong types (arrays)', objectWith(keys, [1])],
    ['wrong types (numbers)', objectWith(keys, 12_345)],
    ['wrong types (booleans)', objectWith(keys, true)],
    ['wrong types (objects)', objectWith(keys, { nested: { deeper: 'x' } })],
    ['very long strings', objectWith(keys, 'a'.repeat(5_000))],
    ['empty object', {}],
  ];
  for (const [name, value] of candidates) {
    // Skip a candidate only when it is in fact a valid request for this route (e.g. `{}` for logout).
    if (schema?.safeParse(value).success) continue;
    probes.push({ name, body: JSON.stringify(value) });
  }
  probes.push(
    { name: 'bad JSON', body: '{"email": "a@b.c",' },
    { name: 'JSON array', body: '[{"email":"a@b.c"}]' },
    { name: 'JSON string', body: '"hello"' },
    { name: 'JSON null', body: 'null' },
    { name: 'deep nesting', body: `${'['.repeat(5_000)}${']'.repeat(5_000)}` },
    { name: 'over the body limit', body: JSON.stringify({ x: 'a'.repeat(3 * 1024 * 1024) }) },
    { name: '__proto__ poisoning', body: '{"__proto__":{"admin":true}}' },
    { name: 'constructor poisoning', body: '{"constructor":{"prototype":{"x":1}}}' },
    { name: 'empty body with JSON type', body: '' },
    { name: 'text/plain', body: 'hello', contentType: 'text/plain' },
    { name: 'form encoded', body: 'email=a%40b.c', contentType: 'application/x-www-form-urlencoded' },
  );
  return probes;
}

/** A valid value for each path parameter, so probes reach the handler (ids of nothing: 404s). */
const VALID_PARAMS: Record<string, string> = { address: VALID_ADDRESS, index: '0' };
const VALID_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

function urlFor(route: RouteInfo, probe: Probe): string {
  const path = route.url.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = probe.params?.[name] ?? VALID_PARAMS[name] ?? VALID_ID;
    return value.startsWith('%') ? value : encodeURIComponent(value);
  });
  return path + (probe.query ?? '');
}

/** Null when `response` is a 4xx in the one error shape with the status its code names. */
function problemWith(response: ApiResponse): string | null {
  if (response.status < 400 || response.status > 499) return `status ${response.status}`;
  const body = response.body;
  if (typeof body !== 'object' || body === null || Object.keys(body).join() !== 'error') return `body ${response.raw.slice(0, 120)}`;
  const error: unknown = Reflect.get(body, 'error');
  if (typeof error !== 'object' || error === null) return 'error is not an object';
  const extra = Object.keys(error).filter((key) => !['code', 'message', 'details'].includes(key));
  const code: unknown = Reflect.get(error, 'code');
  if (extra.length > 0 || !isErrorCode(code) || typeof Reflect.get(error, 'message') !== 'string') return `shape ${response.raw.slice(0, 120)}`;
  if (ERROR_STATUS[code] !== response.status) return `code ${code} with status ${response.status}`;
  return null;
}

async function countRows(env: TestEnv): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await env.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

describeEachDatabase('malformed input sweep', (env) => {
  it('answers every malformed request with a 4xx in the one error shape and changes nothing', async () => {
    const app = await env.buildApp({ config: { authRateLimit: 1_000_000 } });
    const api = new ApiClient(app);
    const { token } = await newSession(api, env.dataDir, await TestUser.create());

    const routes = app.routeList.filter((r) => r.url.startsWith('/api') && r.method !== 'HEAD');
    // Every API route is declared through the validating route definer (or is the socket route).
    expect(routes.filter((r) => !r.meta)).toEqual([]);
    expect(routes.length).toBeGreaterThanOrEqual(30);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(expect.arrayContaining([...MEMBER_ROUTES, ...STORAGE_ROUTES]));

    const before = await countRows(env);
    const problems: string[] = [];
    let sent = 0;
    for (const route of routes) {
      for (const probe of probesFor(route)) {
        for (const auth of [undefined, token]) {
          const response = await api.request(route.method as 'POST', urlFor(route, probe), undefined, {
            ...(auth ? { token: auth } : {}),
            ...(probe.body !== undefined ? { rawBody: probe.body } : {}),
            headers: probe.body !== undefined ? { 'content-type': probe.contentType ?? 'application/json' } : {},
          });
          sent += 1;
          const problem = problemWith(response);
          if (problem) problems.push(`${route.method} ${route.url} [${probe.name}${auth ? ', signed in' : ''}]: ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(500);
    expect(await countRows(env)).toEqual(before);
    // The session used for the signed-in half is still alive: nothing malformed logged it out.
    expect((await api.get('/api/account', { token })).status).toBe(200);
  });

  it('answers bad member requests against a real vault and membership with 400 and changes nothing', async () => {
    const api = new ApiClient(await env.buildApp({ config: { authRateLimit: 1_000_000 } }));
    const owner = await VaultActor.create(env, api);
    const invitee = await VaultActor.create(env, api);
    const { vaultId, ring } = await createPrivateVault(owner);
    const op = await inviteOp(owner, vaultId, invitee, 'VIEWER', ring);
    const membershipId = await membershipIdOf(env.db, vaultId, owner.userId);
    const { signature: _signature, ...unsigned } = op;
    const bad: [string, string, unknown][] = [
      ['GET', '/api/users/lookup', undefined],
      ['GET', '/api/users/lookup?email=not-an-email', undefined],
      ['GET', `/api/users/lookup?email=${encodeURIComponent(invitee.user.email)}&email=x@y.z`, undefined],
      ['POST', `/api/vaults/${vaultId}/invitations`, { ops: [] }],
      ['POST', `/api/vaults/${vaultId}/invitations`, { ops: [unsigned] }],
      ['POST', `/api/vaults/${vaultId}/invitations`, { ops: [op], message: 'x'.repeat(1_001) }],
      ['POST', `/api/vaults/${vaultId}/invitations`, { ops: Array.from({ length: 21 }, () => op) }],
      ['POST', `/api/vaults/${vaultId}/invitations`, { ops: [{ ...op, body: { ...op.body, role: 'REVOKED' } }] }],
      ['POST', `/api/vaults/${vaultId}/invitations`, { ops: [op], extra: true }],
      ['POST', `/api/vaults/not-an-id!/invitations`, { ops: [op] }],
      ['POST', `/api/vaults/${vaultId}/members/${membershipId}/resend`, { unexpected: 1 }],
      ['POST', `/api/vaults/${vaultId}/members/bad!id/resend`, undefined],
      ['GET', `/api/vaults/${vaultId}/members?role=OWNER`, undefined],
      ['GET', `/api/memberships/${'A'.repeat(65)}`, undefined],
      ['GET', '/api/notifications?limit=500', undefined],
      ['PATCH', '/api/notifications/bad!id', undefined],
      ['PATCH', '/api/notifications?vaultId=bad!id', undefined],
      ['DELETE', '/api/notifications?status=UNREAD', undefined],
      ['DELETE', '/api/notifications/bad!id', undefined],
      ['GET', '/api/notifications?before=12', undefined],
    ];
    const before = await countRows(env);
    const mails = readMailbox(env.dataDir).length;
    const answers = [];
    for (const [method, url, body] of bad) {
      const response = await api.request(method as 'POST', url, body, { token: owner.token });
      answers.push({ method, url: url.slice(0, 80), status: response.status, code: errorCode(response), problem: problemWith(response) });
    }
    expect(answers.filter((a) => a.status !== 400 || a.code !== 'VALIDATION_FAILED' || a.problem !== null)).toEqual([]);
    expect(await countRows(env)).toEqual(before);
    expect(readMailbox(env.dataDir)).toHaveLength(mails);
  });
});

/** The members routes (src/protocol/members.ts), which the sweep must reach. */
const MEMBER_ROUTES = [
  'GET /api/users/lookup',
  'POST /api/vaults/:vaultId/invitations',
  'POST /api/vaults/:vaultId/members/:membershipId/resend',
  'GET /api/vaults/:vaultId/members',
  'GET /api/memberships/:membershipId',
  'GET /api/notifications',
  'PATCH /api/notifications',
  'PATCH /api/notifications/:id',
  'DELETE /api/notifications',
  'DELETE /api/notifications/:id',
];

/** The storage figures: the account's own, and the room an upload into one vault has. */
const STORAGE_ROUTES = ['GET /api/storage', 'GET /api/vaults/:vaultId/storage'];
