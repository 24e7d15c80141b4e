/**
 * The signed-out viewer judges a public vault's log as a member's device does (SYNC_SPEC R67):
 * against the REAL server, with the server's database changed the way an attacker holding it
 * would, an operation validly signed by a key that is not a member's, by a VIEWER or by a member
 * after their revocation is refused and never shown, while what members who may write did shows.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../server/testing/ApiClient';
import { TestEnv } from '../../server/testing/databases';
import { addMember } from '../../server/testing/members';
import { clear, expectAccepted, newId, VaultActor } from '../../server/testing/vaults';
import { canonicalJson } from '../protocol/canonical';
import { PullResponse } from '../protocol/vaults';
import { listChildren, loadPublicVault, type PublicFetch } from './publicProjection';

const env = new TestEnv('sqlite');
let app: FastifyInstance;
let owner: VaultActor;
let carol: VaultActor;
let victor: VaultActor;
let rita: VaultActor;
let stranger: VaultActor;
let vaultId: string;

/** Signed out: no token, no cookie, straight to the app. */
const publicFetch: PublicFetch = async (path) => {
  const response = await app.inject({ method: 'GET', url: `/api/public${path}` });
  return new Response(new Uint8Array(response.rawPayload), { status: response.statusCode });
};

/**
 * A hostile server appends a folder.create validly signed by `author` to the log and shows the
 * folder as ACTIVE, as if it had accepted it (the honest server refuses it: not a writer).
 */
async function forgeFolder(author: VaultActor, name: string): Promise<void> {
  const folderId = newId();
  const op = await author.sign(vaultId, folderId, { type: 'folder.create', parentId: null, name: clear(name) });
  const vault = await env.db.selectFrom('vaults').select('head_seq').where('id', '=', vaultId).executeTakeFirstOrThrow();
  const seq = Number(vault.head_seq) + 1;
  const body = canonicalJson(op);
  const now = Date.now();
  await env.db
    .insertInto('ops')
    .values({ vault_id: vaultId, seq, op_id: op.id, author_user_id: author.userId, type: 'folder.create', object_id: folderId, body, body_bytes: Buffer.byteLength(body), received_at: now })
    .execute();
  await env.db
    .insertInto('nodes')
    .values({ id: folderId, vault_id: vaultId, kind: 'folder', parent_id: null, status: 'ACTIVE', size: 0, version_count: 0, latest_version_id: null, created_at: now, updated_at: now })
    .execute();
  await env.db.updateTable('vaults').set({ head_seq: seq }).where('id', '=', vaultId).execute();
}

beforeAll(async () => {
  await env.setUp();
  app = await env.buildApp();
  const api = new ApiClient(app);
  owner = await VaultActor.create(env, api);
  carol = await VaultActor.create(env, api);
  victor = await VaultActor.create(env, api);
  rita = await VaultActor.create(env, api);
  stranger = await VaultActor.create(env, api);
  vaultId = await owner.createVault({ isPublic: true });
  await addMember(owner, vaultId, carol, 'CONTRIBUTOR', null);
  await addMember(owner, vaultId, victor, 'VIEWER', null);
  const ritaMembership = await addMember(owner, vaultId, rita, 'CONTRIBUTOR', null);
  expectAccepted(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: clear('Owner folder') }));
  expectAccepted(await carol.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: clear('Carol folder') }));
  expectAccepted(await rita.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: clear('Rita before') }));
  expectAccepted(await owner.apply(vaultId, ritaMembership, { type: 'member.revoke' }));
  await forgeFolder(stranger, 'Stranger folder');
  await forgeFolder(victor, 'Viewer folder');
  await forgeFolder(rita, 'Rita after');
}, 60_000);

afterAll(() => env.tearDown());

describe('the signed-out viewer against a hostile server', () => {
  it('[R67] refuses operations signed by a non-member, by a VIEWER and by a revoked member; shows what writers did', async () => {
    const { state, unverified } = await loadPublicVault(vaultId, publicFetch);
    expect(listChildren(state, null).map((n) => n.name)).toEqual(['Carol folder', 'Owner folder', 'Rita before']);
    expect(unverified).toBe(3);
  });

  it('[R67] refuses the VIEWER’s operation even when the server serves the VIEWER’s own invitation', async () => {
    // A server that serves the whole log, every member operation included (the members' pull).
    const servesEverything: PublicFetch = async (path) => {
      const match = /^\/vaults\/([^/?]+)\/ops\?after=(\d+)/.exec(path);
      if (!match) return publicFetch(path);
      const response = await app.inject({ method: 'GET', url: `/api/vaults/${match[1]}/ops?after=${match[2]}`, headers: { authorization: `Bearer ${owner.token}` } });
      const page = PullResponse.parse(JSON.parse(response.body));
      expect(page.ops.some((o) => o.op.body.type === 'member.invite' && o.op.body.memberKey === victor.user.publicSigningKey)).toBe(true);
      return new Response(JSON.stringify({ ...page, nextAfter: page.ops.at(-1)?.seq ?? Number(match[2]) }), { status: 200 });
    };
    const { state, unverified } = await loadPublicVault(vaultId, servesEverything);
    expect(listChildren(state, null).map((n) => n.name)).toEqual(['Carol folder', 'Owner folder', 'Rita before']);
    expect(unverified).toBe(3);
  });

  it('[R67] refuses everything when the server leaves out the vault’s creation', async () => {
    const withoutCreation: PublicFetch = async (path) => {
      const response = await publicFetch(path);
      if (!path.includes('/ops')) return response;
      const page = JSON.parse(await response.text()) as { ops: { seq: number }[] };
      return new Response(JSON.stringify({ ...page, ops: page.ops.filter((o) => o.seq !== 1) }), { status: 200 });
    };
    const { state } = await loadPublicVault(vaultId, withoutCreation);
    expect(listChildren(state, null)).toEqual([]);
  });
});
