/**
 * Spec 001 section 4 (Airdrop) on the server: an airdrop link's passwordless session reaches only
 * its own vault (read, upload within the link's allowance, chat as a CONTRIBUTOR) and its own
 * session, notifications and uploads. Every other signed-in route answers 403 before reading its
 * input, it creates no vault and is never made owner, and it has no storage allowance of its own.
 */
import { beforeAll, expect, it } from 'vitest';
import { SessionResponse } from '../../src/protocol/auth';
import { MemberListResponse } from '../../src/protocol/members';
import { StorageResponse, VaultListResponse } from '../../src/protocol/vaults';
import { ApiClient, errorCode } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { airdropMember, inviteOp } from '../testing/members';
import { clear, countVaultRows, expectAccepted, expectRejected, makeFile, membershipIdOf, newId, sealed, VaultActor, vaultState } from '../testing/vaults';
import { PASSWORDLESS_ROUTES } from './passwordlessRoutes';

const HOUR = 60 * 60 * 1000;

describeEachDatabase('passwordless (airdrop) sessions', (env) => {
  let api: ApiClient;
  let owner: VaultActor;
  let other: VaultActor;
  let vaultId: string;
  let guest: VaultActor;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp({ config: { authRateLimit: 1_000_000 } }));
    owner = await VaultActor.create(env, api);
    other = await VaultActor.create(env, api);
    vaultId = await owner.createVault();
    guest = await airdropMember(owner, vaultId, { role: 'CONTRIBUTOR', storageAllowance: 500_000, expiresAt: env.clock.now() + HOUR });
  });

  /** Everything a refused request must leave as it was: the vault tables and the guest's account. */
  async function snapshot() {
    return {
      rows: await countVaultRows(env.db),
      vault: await vaultState(env.db, vaultId),
      users: await env.db.selectFrom('users').selectAll().orderBy('id').execute(),
    };
  }

  it('answers 403 on every signed-in route not opened to links, whatever the input, and changes nothing', async () => {
    const app = api.app as typeof api.app & { routeList: { method: string; url: string; meta?: { auth: string; allowsPasswordless?: boolean } }[] };
    const closed = app.routeList.filter(
      (r) => r.url.startsWith('/api') && r.method !== 'HEAD' && r.url !== '/api/ws' && r.meta?.auth !== 'none' && !r.meta?.allowsPasswordless,
    );
    // The routes the finding names are among them.
    expect(closed.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/users/lookup',
        'POST /api/vaults/:vaultId/invitations',
        'POST /api/vaults/:vaultId/members/:membershipId/resend',
        'PATCH /api/account/attributes',
        'PUT /api/account/profile',
        'DELETE /api/account',
        'POST /api/auth/reauth/start',
        // Issue 19: reading the network through this server (R96) and importing a vault (R91)
        // are an account's, not a link's: a link's holder has no vault of their own to restore.
        'GET /api/arweave/items',
        'POST /api/vaults/:vaultId/import',
      ]),
    );
    const before = await snapshot();
    const membershipId = await membershipIdOf(env.db, vaultId, owner.userId);
    const answers: string[] = [];
    for (const route of closed) {
      const url = route.url.replace(':vaultId', vaultId).replace(':membershipId', membershipId).replace(/:[A-Za-z]+/g, newId());
      const response = await api.request(route.method as 'POST', url, route.method === 'GET' || route.method === 'DELETE' ? undefined : {}, { token: guest.token });
      answers.push(`${route.method} ${route.url}: ${response.status} ${errorCode(response)}`);
    }
    expect(answers).toEqual(closed.map((r) => `${r.method} ${r.url}: 403 FORBIDDEN`));
    expect(await snapshot()).toEqual(before);
  });

  it('cannot look people up, invite, resend or change its account, even with well-formed requests', async () => {
    const before = await snapshot();
    expectError(await api.get(`/api/users/lookup?email=${encodeURIComponent(owner.user.email)}`, { token: guest.token }), 403, 'FORBIDDEN');
    const invite = await inviteOp(owner, vaultId, other, 'VIEWER', null);
    const signed = await guest.sign(vaultId, invite.objectId, invite.body);
    expectError(await api.post(`/api/vaults/${vaultId}/invitations`, { ops: [signed] }, { token: guest.token }), 403, 'FORBIDDEN');
    expectError(await api.request('PATCH', '/api/account/attributes', { mode: 'dark' }, { token: guest.token }), 403, 'FORBIDDEN');
    expectError(await api.request('PUT', '/api/account/profile', { name: 'Mallory' }, { token: guest.token }), 403, 'FORBIDDEN');
    expect(await snapshot()).toEqual(before);
  });

  it('creates no vault and cannot be made owner; its storage allowance is 0', async () => {
    const before = await snapshot();
    const created = newId();
    const refused = await guest.apply(created, created, { type: 'vault.create', isPublic: true, isCloud: true, name: clear('Free storage') });
    expectRejected(refused, 'FORBIDDEN');
    expect(await env.db.selectFrom('vaults').select('id').where('id', '=', created).executeTakeFirst()).toBeUndefined();

    const guestMembership = await membershipIdOf(env.db, vaultId, guest.userId);
    expectRejected(await owner.apply(vaultId, guestMembership, { type: 'member.changeRole', role: 'OWNER' }), 'FORBIDDEN');
    expect(await snapshot()).toEqual(before);

    const storage = StorageResponse.parse((await api.get('/api/storage', { token: guest.token })).body);
    expect({ cloud: storage.cloudTotal, permanent: storage.permanentTotal }).toEqual({ cloud: 0, permanent: 0 });
  });

  it('still reads its vault, uploads within its allowance, chats, and keeps its session and notifications', async () => {
    expectStatus(await api.get('/api/auth/session', { token: guest.token }), 200);
    expect(SessionResponse.parse((await api.get('/api/account', { token: guest.token })).body).user.passwordless).toBe(true);
    const vaults = VaultListResponse.parse((await api.get('/api/vaults', { token: guest.token })).body).vaults;
    expect(vaults.map((v) => v.vaultId)).toEqual([vaultId]);
    expectStatus(await api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: guest.token }), 200);
    const members = MemberListResponse.parse((await api.get(`/api/vaults/${vaultId}/members`, { token: guest.token })).body).members;
    expect(members.map((m) => m.userId)).toEqual(expect.arrayContaining([owner.userId, guest.userId]));

    const file = makeFile(100_000);
    const version = await guest.upload(vaultId, file);
    const fileId = newId();
    expectAccepted(await guest.apply(vaultId, fileId, { type: 'file.create', parentId: null, name: sealed(), version }));
    const download = await guest.getChunk(vaultId, version.blobId, 0);
    expect(download.statusCode).toBe(200);
    expectError(await guest.announce(vaultId, newId(), 450_000, 1), 422, 'NOT_ENOUGH_STORAGE');
    expectAccepted(await guest.apply(vaultId, newId(), { type: 'memo.create', message: sealed() }));

    expectStatus(await api.get('/api/notifications', { token: guest.token }), 200);
    expectStatus(await api.get('/api/storage/transactions', { token: guest.token }), 200);
    // Another vault stays out of reach, as for anyone who is not a member.
    const otherVault = await other.createVault();
    expectError(await api.get(`/api/vaults/${otherVault}/ops?after=0`, { token: guest.token }), 404, 'NOT_FOUND');
    expectStatus(await api.post('/api/auth/logout', undefined, { token: guest.token }), 200);
  });

  it('names only routes that exist', async () => {
    const app = api.app as typeof api.app & { routeList: { method: string; url: string }[] };
    const routes = new Set(app.routeList.map((r) => `${r.method} ${r.url}`));
    expect([...PASSWORDLESS_ROUTES].filter((r) => !routes.has(r))).toEqual([]);
  });
});
