/**
 * Devices against the REAL server for client tests (members.test.ts, maliciousServer.test.ts):
 * each has its own account, session, crypto API (the code the crypto worker runs), IndexedDB
 * (fake-indexeddb) and SyncClient, and a network a test can cut, drop answers on, run something
 * before, or make lie (`tamper`: the server's answer rewritten before the device sees it).
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { CryptoApi } from '../../../workers/crypto/CryptoApi';
import { createCryptoApi } from '../../../workers/crypto/createCryptoApi';
import { ApiClient as ServerTestClient } from '../../../server/testing/ApiClient';
import { TestEnv } from '../../../server/testing/databases';
import { logInSession, newSession } from '../../../server/testing/flows';
import { TestUser } from '../../../server/testing/TestUser';
import { createApiClient, type FetchLike } from '../../platform/apiClient';
import { CairnDb } from '../../storage/db';
import { getMembers } from '../../storage/memberStore';
import { setCurrentSync } from '../currentSync';
import * as members from '../memberActions';
import { SyncClient } from '../SyncClient';
import { injectFetch } from './realServer';
import * as actions from '../vaultActions';

export interface Device {
  name: string;
  user: TestUser;
  userId: string;
  db: CairnDb;
  crypto: CryptoApi;
  client: SyncClient;
  api: ReturnType<typeof createApiClient>;
  online: boolean;
  /** The next request matching this ('METHOD /path') gets no answer, as on a dropped connection. */
  dropNext: RegExp | null;
  /** Runs once before the next request matching `pattern` is sent (another device acting meanwhile). */
  beforeNext: { pattern: RegExp; run: () => Promise<void> } | null;
  /** A lying server or network: rewrites the answer to each request ('METHOD /path') before the device reads it. */
  tamper: ((request: string, response: Response) => Promise<Response>) | null;
}

/**
 * One real server (buildApp on a temp SQLite DATA_DIR) for a test file, set up before its tests
 * and torn down after them; `device` makes a device of a new account, or of `existing`'s.
 */
export function realServerSuite(): { env: TestEnv; device: (name: string, existing?: TestUser) => Promise<Device> } {
  const env = new TestEnv('sqlite');
  let app: FastifyInstance;
  beforeAll(async () => {
    await env.setUp();
    app = await env.buildApp();
  }, 60_000);
  afterAll(async () => {
    setCurrentSync(null);
    await env.tearDown();
  });
  return { env, device: (name, existing) => device(env, name, () => app, existing) };
}

/** A device of a new account, or of `existing`'s account (another device: a new session). */
export async function device(env: TestEnv, name: string, server: () => FastifyInstance, existing?: TestUser): Promise<Device> {
  const user = existing ?? (await TestUser.create());
  const serverApi = new ServerTestClient(server());
  const session = existing ? await logInSession(serverApi, user) : await newSession(serverApi, env.dataDir, user);
  const crypto = createCryptoApi();
  await crypto.loadPendingWallet(user.phrase.split(' '));
  await crypto.activatePendingWallet();
  const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  const self = { online: true, dropNext: null, beforeNext: null, tamper: null } as Device;
  const inner = injectFetch(server, () => session.token);
  const fetchLike = (async (input: string, init: RequestInit) => {
    if (!self.online) throw new TypeError('Failed to fetch');
    const request = `${init.method ?? 'GET'} ${input}`;
    if (self.dropNext?.test(request)) {
      self.dropNext = null;
      throw new TypeError('Failed to fetch');
    }
    const before = self.beforeNext;
    if (before?.pattern.test(request)) {
      self.beforeNext = null;
      await before.run();
    }
    const response = await inner(input, init);
    return self.tamper ? self.tamper(request, response) : response;
  }) as FetchLike;
  const api = createApiClient({ fetch: fetchLike });
  const client = new SyncClient({ db, api, crypto, transfer: null, log: () => {} }, { pollIntervalMs: 0 });
  client.start(session.user.id, { id: session.user.id, publicSigningKey: user.publicSigningKey, address: user.address });
  return Object.assign(self, { name, user, userId: session.user.id, db, crypto, client, api });
}

/** Makes `d` the device whose actions run, then runs `action`. */
export async function as<T>(d: Device, action: () => Promise<T>): Promise<T> {
  setCurrentSync(d.client);
  return action();
}

export async function sync(...devices: Device[]): Promise<void> {
  for (const d of devices) await d.client.syncNow();
}

export async function membershipIdOf(owner: Device, vaultId: string, email: string): Promise<string> {
  const found = (await getMembers(owner.db, owner.userId, vaultId)).find((m) => m.email === email);
  if (!found) throw new Error(`${email} is not in the member list`);
  return found.membershipId;
}

/** Owner creates a private vault and invites the others as `role`; each accepts. */
export async function sharedVault(owner: Device, others: { d: Device; role: 'OWNER' | 'CONTRIBUTOR' | 'VIEWER' }[], title: string): Promise<string> {
  const vaultId = await as(owner, () => actions.createVault({ title, description: '', tags: [], terms: 'Be kind.', isPublic: false, isCloud: true }));
  await sync(owner);
  const results = await as(owner, () => members.inviteMembers(vaultId, others.map(({ d, role }) => ({ email: d.user.email, role }))));
  expect(results.map((r) => r.status)).toEqual(others.map(() => 'invited'));
  for (const [i, { d }] of others.entries()) {
    await sync(d);
    await as(d, () => members.acceptInvite(vaultId, (results[i] as { membershipId: string }).membershipId));
  }
  await sync(owner);
  return vaultId;
}

