/**
 * Airdrop links on the server (spec 001 sections 2-6): member.airdrop makes a passwordless account
 * and an ACCEPTED membership; the wallet login proves the link's key by a signed one-time
 * challenge; the membership's expiry (the end of the chosen day) is enforced by the server's
 * clock on every read and write and ends the session; the upload allowance caps announcements.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SessionResult } from '../../src/protocol/auth';
import { WalletChallengeResponse } from '../../src/protocol/members';
import { type OperationBody, VaultListResponse } from '../../src/protocol/vaults';
import { redactSecrets } from '../app';
import { ApiClient, errorCode } from '../testing/ApiClient';
import { describeEachDatabase, type TestEnv } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { TestUser } from '../testing/TestUser';
import { clear, countVaultRows, expectAccepted, expectRejected, makeFile, newId, sealed, VaultActor, vaultState } from '../testing/vaults';
import { WALLET_CHALLENGE_TTL_MS } from '../services/WalletLoginService';

const HOUR = 60 * 60 * 1000;

/** The last millisecond of the current UTC day: what a client in UTC sends for 'today'. */
function endOfTodayUtc(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) - 1;
}

interface Airdrop {
  wallet: TestUser;
  membershipId: string;
  body: OperationBody;
}

function airdropBody(wallet: TestUser, options: Partial<Extract<OperationBody, { type: 'member.airdrop' }>> & { expiresAt: number }): OperationBody {
  return {
    type: 'member.airdrop',
    name: sealed(),
    role: 'CONTRIBUTOR',
    memberKey: wallet.publicSigningKey,
    memberEncryptionKey: wallet.publicEncryptionKey,
    keys: sealed(80).c,
    keyCount: 1,
    storageAllowance: 1_000_000,
    ...options,
  };
}

describeEachDatabase('airdrop links', (env: TestEnv) => {
  let api: ApiClient;
  let owner: VaultActor;
  let vaultId: string;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
    vaultId = await owner.createVault();
  });

  /** A fresh wallet, as the owner's device makes for a link, airdropped into `vault`. */
  async function airdrop(vault: string, options: Partial<Extract<OperationBody, { type: 'member.airdrop' }>> = {}): Promise<Airdrop> {
    const wallet = await TestUser.create();
    const membershipId = newId();
    const body = airdropBody(wallet, { expiresAt: env.clock.now() + HOUR, ...options });
    expectAccepted(await owner.apply(vault, membershipId, body));
    return { wallet, membershipId, body };
  }

  async function challenge(wallet: TestUser): Promise<string> {
    const response = await api.post('/api/auth/wallet/challenge', { publicSigningKey: wallet.publicSigningKey });
    expectStatus(response, 200);
    return WalletChallengeResponse.parse(response.body).challenge;
  }

  async function walletLogin(wallet: TestUser, challengeText?: string) {
    const c = challengeText ?? (await challenge(wallet));
    const signature = await wallet.sign({ purpose: 'wallet-login', challenge: c });
    return api.post('/api/auth/wallet/login', { publicSigningKey: wallet.publicSigningKey, challenge: c, signature });
  }

  it('makes a passwordless account and an ACCEPTED membership for the link wallet', async () => {
    const expiresAt = env.clock.now() + HOUR;
    const { wallet, membershipId } = await airdrop(vaultId, { expiresAt, role: 'VIEWER', storageAllowance: 0 });
    const user = await env.db.selectFrom('users').selectAll().where('public_signing_key', '=', wallet.publicSigningKey).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ address: wallet.address, public_encryption_key: wallet.publicEncryptionKey, opaque_record: '', enc_backup_phrase: '' });
    expect(Number(user.passwordless)).toBe(1);
    expect(user.email).toMatch(/@airdrop\.invalid$/);
    const membership = await env.db.selectFrom('memberships').selectAll().where('id', '=', membershipId).executeTakeFirstOrThrow();
    expect(membership).toMatchObject({ vault_id: vaultId, user_id: user.id, role: 'VIEWER', status: 'ACCEPTED', invited_by_user_id: owner.userId });
    expect(Number(membership.expires_at)).toBe(expiresAt);
    expect(Number(membership.storage_allowance)).toBe(0);
  });

  it('signs in with the link wallet: a session that ends with the browser and sees the vault', async () => {
    const { wallet, membershipId } = await airdrop(vaultId);
    const response = await walletLogin(wallet);
    expectStatus(response, 200);
    const session = SessionResult.parse(response.body);
    expect(session.user).toMatchObject({ passwordless: true, publicSigningKey: wallet.publicSigningKey, address: wallet.address });
    expect(session.expiresAt).toBeNull();
    expect(response.cookies.cairn_session?.maxAge).toBeUndefined();
    expect(response.cookies.cairn_session?.httpOnly).toBe(true);

    const list = VaultListResponse.parse((await api.get('/api/vaults', { token: session.token })).body);
    expect(list.vaults.map((v) => [v.vaultId, v.membership.id, v.membership.role])).toEqual([[vaultId, membershipId, 'CONTRIBUTOR']]);
    expect(list.vaults[0]?.membership.expiresAt).toEqual(expect.any(Number));
    expectStatus(await api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: session.token }), 200);
  });

  it('refuses a spent, foreign or forged challenge and a wallet without an account', async () => {
    const { wallet } = await airdrop(vaultId);
    const c = await challenge(wallet);
    expectStatus(await walletLogin(wallet, c), 200);
    expectError(await walletLogin(wallet, c), 401, 'INVALID_CREDENTIALS');

    const other = await TestUser.create();
    const forOther = await challenge(other);
    expectError(await walletLogin(wallet, forOther), 401, 'INVALID_CREDENTIALS');
    // Answered for any key, so it does not tell which wallets have accounts; login still fails.
    expectError(await walletLogin(other), 401, 'INVALID_CREDENTIALS');

    const forged = await api.post('/api/auth/wallet/login', {
      publicSigningKey: wallet.publicSigningKey,
      challenge: await challenge(wallet),
      signature: await other.sign({ purpose: 'wallet-login', challenge: 'x' }),
    });
    expectError(forged, 401, 'INVALID_CREDENTIALS');
    expectError(await api.post('/api/auth/wallet/login', { publicSigningKey: 'zz', challenge: 'c', signature: 's' }), 400, 'VALIDATION_FAILED');
  });

  it('a challenge lasts 5 minutes', async () => {
    const { wallet } = await airdrop(vaultId, { expiresAt: env.clock.now() + 2 * HOUR });
    const c = await challenge(wallet);
    env.clock.advance(WALLET_CHALLENGE_TTL_MS + 1);
    expectError(await walletLogin(wallet, c), 401, 'INVALID_CREDENTIALS');
    expectStatus(await walletLogin(wallet), 200);
  });

  it('keeps passwordless accounts out of e-mail login, recovery, member look-up and re-authentication', async () => {
    const { wallet } = await airdrop(vaultId);
    const { email } = await env.db.selectFrom('users').select('email').where('public_signing_key', '=', wallet.publicSigningKey).executeTakeFirstOrThrow();
    expectError(await api.post('/api/auth/recover/start', { email }), 404, 'USER_NOT_FOUND');
    expectError(await api.get(`/api/users/lookup?email=${encodeURIComponent(email)}`, { token: owner.token }), 404, 'USER_NOT_FOUND');
    const session = SessionResult.parse((await walletLogin(wallet)).body);
    const reauth = await api.post('/api/auth/reauth/start', { startLoginRequest: wallet.startLogin().startLoginRequest }, { token: session.token });
    expectError(reauth, 403, 'FORBIDDEN');
  });

  it('refuses a past expiry, a wrong ring, a clear name in a private vault and a wallet that has an account; nothing changes', async () => {
    const before = await vaultState(env.db, vaultId);
    const rows = await countVaultRows(env.db);
    const wallet = await TestUser.create();
    const now = env.clock.now();
    const cases: [Partial<Extract<OperationBody, { type: 'member.airdrop' }>>, string][] = [
      [{ expiresAt: now - 1 }, 'VALIDATION_FAILED'],
      [{ keyCount: 2 }, 'STALE_VAULT_KEY'],
      [{ keys: undefined, keyCount: undefined }, 'VALIDATION_FAILED'],
      [{ name: clear('Auditor') }, 'VALIDATION_FAILED'],
      [{ memberKey: owner.user.publicSigningKey, memberEncryptionKey: owner.user.publicEncryptionKey }, 'CONFLICT'],
    ];
    for (const [patch, code] of cases) {
      const body = { ...airdropBody(wallet, { expiresAt: now + HOUR }), ...patch } as OperationBody;
      if ('keys' in patch && patch.keys === undefined) {
        delete (body as { keys?: string }).keys;
        delete (body as { keyCount?: number }).keyCount;
      }
      expectRejected(await owner.apply(vaultId, newId(), body), code);
    }
    expect(await vaultState(env.db, vaultId)).toEqual(before);
    expect(await countVaultRows(env.db)).toEqual(rows);
    expect(await env.db.selectFrom('users').select('id').where('public_signing_key', '=', wallet.publicSigningKey).executeTakeFirst()).toBeUndefined();

    const { wallet: taken } = await airdrop(vaultId);
    expectRejected(await owner.apply(vaultId, newId(), airdropBody(taken, { expiresAt: now + HOUR })), 'CONFLICT');
  });

  it('public vaults: a clear name and no keys', async () => {
    const publicId = await owner.createVault({ isPublic: true });
    const wallet = await TestUser.create();
    const expiresAt = env.clock.now() + HOUR;
    expectRejected(await owner.apply(publicId, newId(), airdropBody(wallet, { expiresAt, name: clear('Guest') })), 'VALIDATION_FAILED');
    const open: OperationBody = { ...airdropBody(wallet, { expiresAt, name: clear('Guest') }) };
    delete (open as { keys?: string }).keys;
    delete (open as { keyCount?: number }).keyCount;
    expectAccepted(await owner.apply(publicId, newId(), open));
  });

  it('caps uploads at the allowance (reserved and committed together); 0 allows none', async () => {
    const { wallet } = await airdrop(vaultId, { storageAllowance: 150_000 });
    const session = SessionResult.parse((await walletLogin(wallet)).body);
    const member = new VaultActor(api, wallet, session.token, session.user.id);
    const file = makeFile(100_000);
    await member.upload(vaultId, file);
    const tooMuch = await member.announce(vaultId, newId(), file.storedSize, file.chunks.length);
    expectError(tooMuch, 422, 'NOT_ENOUGH_STORAGE');
    expect(errorCode(await member.announce(vaultId, newId(), 40_000, 1))).toBeUndefined();
    // A group of small files counts together: two that fit alone but not both are not reserved.
    const rowsBefore = await countVaultRows(env.db);
    const group = { blobs: [{ blobId: newId(), storedSize: 6_000, chunkCount: 1 }, { blobId: newId(), storedSize: 6_000, chunkCount: 1 }] };
    expectError(await api.post(`/api/vaults/${vaultId}/blobs/batch`, group, { token: session.token }), 422, 'NOT_ENOUGH_STORAGE');
    expect(await countVaultRows(env.db)).toEqual(rowsBefore);
    expectStatus(await api.post(`/api/vaults/${vaultId}/blobs/batch`, { blobs: group.blobs.slice(0, 1) }, { token: session.token }), 200);

    const { wallet: viewerLike } = await airdrop(vaultId, { storageAllowance: 0 });
    const noUploads = SessionResult.parse((await walletLogin(viewerLike)).body);
    const refused = new VaultActor(api, viewerLike, noUploads.token, noUploads.user.id);
    const rows = await countVaultRows(env.db);
    expectError(await refused.announce(vaultId, newId(), 1, 1), 422, 'NOT_ENOUGH_STORAGE');
    expect(await countVaultRows(env.db)).toEqual(rows);
    // The owner has no allowance of their own in their vault.
    expectStatus(await owner.announce(vaultId, newId(), 200_000, 1), 200);
  });

  describe('expiry at the end of the chosen day, on the server clock', () => {
    it('works to the last millisecond of the day, then every read, write and login is refused', async () => {
      const now = env.clock.now();
      const expiresAt = endOfTodayUtc(now);
      const { wallet } = await airdrop(vaultId, { expiresAt });
      const session = SessionResult.parse((await walletLogin(wallet)).body);
      const member = new VaultActor(api, wallet, session.token, session.user.id);

      env.clock.advance(expiresAt - env.clock.now() - 1_000);
      expectStatus(await api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: session.token }), 200);
      expectAccepted(await member.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }));

      env.clock.advance(2_000);
      const before = await vaultState(env.db, vaultId);
      // The session itself ended with the last membership.
      expectError(await api.get('/api/auth/session', { token: session.token }), 401, 'UNAUTHENTICATED');
      const login = await walletLogin(wallet);
      expectError(login, 410, 'EXPIRED');
      expect((login.body as { error: { message: string } }).error.message).toBe('This link has expired.');
      expect(await vaultState(env.db, vaultId)).toEqual(before);
    });

    it('an expired membership is refused 410 on reads, pushes and uploads, whatever the session', async () => {
      const { wallet, membershipId } = await airdrop(vaultId, { expiresAt: env.clock.now() + HOUR });
      const session = SessionResult.parse((await walletLogin(wallet)).body);
      const member = new VaultActor(api, wallet, session.token, session.user.id);
      // The membership ends before the session does (written directly: no operation shortens
      // one), so the vault's own check is what refuses.
      await env.db.updateTable('memberships').set({ expires_at: env.clock.now() + 60_000 }).where('id', '=', membershipId).execute();
      env.clock.advance(60_001);
      expectStatus(await api.get('/api/auth/session', { token: session.token }), 200);
      const before = await vaultState(env.db, vaultId);
      const pull = await api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: session.token });
      expectError(pull, 410, 'EXPIRED');
      expect((pull.body as { error: { message: string } }).error.message).toBe('Your access to this vault has expired.');
      expectRejected(await member.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }), 'EXPIRED');
      expectError(await member.announce(vaultId, newId(), 10, 1), 410, 'EXPIRED');
      expect(await vaultState(env.db, vaultId)).toEqual(before);
    });
  });
});

describe('request logs', () => {
  it('never carry an airdrop wallet or a session token', () => {
    expect(redactSecrets('/login?wallet=AAAAAAAAAAAAAAAAAAAAAA')).toBe('/login?wallet=***');
    expect(redactSecrets('/vaults/active?x=1&wallet=abc#top')).toBe('/vaults/active?x=1&wallet=***#top');
    expect(redactSecrets('/api/ws?token=secret&v=1')).toBe('/api/ws?token=***&v=1');
    expect(redactSecrets('/vaults/active?walletish=1')).toBe('/vaults/active?walletish=1');
  });
});
