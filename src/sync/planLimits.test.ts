/**
 * SYNC_SPEC R101 on the device, against the REAL server with a plan of one vault: a vault.create
 * refused with VAULT_LIMIT (403) is answered to the screen that waits for it, stays in the outbox
 * marked rejected (never pushed again, never dropped unseen: R9), and, once dismissed, leaves no
 * vault behind. Offline, the creation waits in the outbox like any change (R10). An airdrop past
 * the plan's member limit (R102) rejects with MEMBER_LIMIT, which the form turns into the prompt.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestEnv } from '../../server/testing/databases';
import { DEFAULT_PLAN_CATALOG } from '../protocol/plans';
import { ApiError } from '../protocol/errors';
import { MemberListResponse } from '../protocol/members';
import { VaultListResponse } from '../protocol/vaults';
import { makeAirdropLink } from './airdropActions';
import { getVault, getVaults } from '../storage/vaultStore';
import { setCurrentSync } from './currentSync';
import { as, device, sync } from './testing/realDevices';
import * as actions from './vaultActions';

const env = new TestEnv('sqlite');
let app: FastifyInstance;

beforeAll(async () => {
  await env.setUp();
  const [pebble] = DEFAULT_PLAN_CATALOG.plans;
  app = await env.buildApp({ config: { plans: { ...DEFAULT_PLAN_CATALOG, plans: [{ ...pebble!, limits: { vaults: 1, members: null } }] } } });
}, 60_000);

afterAll(async () => {
  setCurrentSync(null);
  await env.tearDown();
});

const input = (title: string) => ({ title, description: '', tags: [], terms: '', isPublic: false, isCloud: true });

it('[R101] a vault.create past the plan is answered VAULT_LIMIT, kept rejected and not pushed again; dismissed, it leaves no vault', async () => {
  const owner = await device(env, 'owner', () => app);
  let pushes = 0;
  owner.tamper = async (request, response) => {
    if (request === 'POST /api/vaults/ops') pushes += 1;
    return response;
  };
  const first = await as(owner, () => actions.startVaultCreation(input('First')));
  expect(await as(owner, () => actions.pushAndConfirm(first.opId))).toEqual({ status: 'accepted' });

  const second = await as(owner, () => actions.startVaultCreation(input('Second')));
  expect(await as(owner, () => actions.pushAndConfirm(second.opId))).toEqual({ status: 'rejected', code: 'VAULT_LIMIT', message: "You've hit the vault limit" });
  const record = await owner.db.outbox.get([owner.userId, second.opId]);
  expect(record).toMatchObject({ status: 'rejected', error: { code: 'VAULT_LIMIT' } });
  expect((await getVault(owner.db, owner.userId, second.vaultId))?.rejection).toMatchObject({ type: 'vault.create', code: 'VAULT_LIMIT' });

  // Later cycles leave the refused operation where it is: no retry loop.
  const pushesBefore = pushes;
  await sync(owner);
  await sync(owner);
  expect(pushes).toBe(pushesBefore);
  expect((await owner.db.outbox.get([owner.userId, second.opId]))?.status).toBe('rejected');

  // Dismissed after the prompt: only the first vault is left, here and on the server.
  await as(owner, () => actions.dismissRejection(second.opId));
  expect(await owner.db.outbox.get([owner.userId, second.opId])).toBeUndefined();
  expect(await getVault(owner.db, owner.userId, second.vaultId)).toBeUndefined();
  expect((await getVaults(owner.db, owner.userId, 'active')).map((v) => v.vaultId)).toEqual([first.vaultId]);
  expect((await owner.api.get('/vaults', VaultListResponse)).vaults.map((v) => v.vaultId)).toEqual([first.vaultId]);
}, 60_000);

it('[R101] offline, a creation waits in the outbox; pushed later past the limit, it is kept rejected on the vault for the user to see', async () => {
  const owner = await device(env, 'offline owner', () => app);
  await as(owner, () => actions.createVault(input('Online one')));
  await sync(owner);
  owner.online = false;
  const late = await as(owner, () => actions.startVaultCreation(input('Made offline')));
  expect(await as(owner, () => actions.pushAndConfirm(late.opId))).toEqual({ status: 'waiting' });
  expect((await owner.db.outbox.get([owner.userId, late.opId]))?.status).toBe('pending');
  owner.online = true;
  await sync(owner);
  expect((await owner.db.outbox.get([owner.userId, late.opId]))?.status).toBe('rejected');
  const vault = await getVault(owner.db, owner.userId, late.vaultId);
  expect(vault).toMatchObject({ name: 'Made offline', rejection: { type: 'vault.create', code: 'VAULT_LIMIT' } });
}, 60_000);

it("[R102] an airdrop past the owner's plan rejects with MEMBER_LIMIT and makes no member", async () => {
  const [pebble] = DEFAULT_PLAN_CATALOG.plans;
  // The default plan's member limit is Config.memberLimit (MEMBER_LIMIT, else the file's figure, as loadConfig fills it).
  const plans = { ...DEFAULT_PLAN_CATALOG, plans: [{ ...pebble!, limits: { vaults: null, members: 1 } }] };
  const limited = await env.buildApp({ config: { plans, memberLimit: 1 } });
  const owner = await device(env, 'airdrop owner', () => limited);
  const vaultId = await as(owner, () => actions.createVault(input('Guests')));
  await sync(owner);
  const guest = { vaultId, isPublic: false, name: 'Guest', role: 'VIEWER' as const, expiresAt: Date.now() + 86_400_000, storageAllowance: 0 };
  const refused = await makeAirdropLink(owner.client.context, owner.crypto, guest, 'http://cairn.test').catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ApiError);
  expect(refused).toMatchObject({ code: 'MEMBER_LIMIT', status: 403, message: "You've hit the member limit" });
  const { members } = await owner.api.get(`/vaults/${vaultId}/members`, MemberListResponse);
  expect(members.map((m) => m.email)).toEqual([owner.user.email]);
  await limited.close();
}, 60_000);
