/**
 * The member operations a signed-out viewer of a public vault is served to judge authors
 * (SYNC_SPEC R67, narrowing R53): all of those of a membership that may write (invited or made
 * OWNER or CONTRIBUTOR), none of a VIEWER's, of an airdrop's or of one whose invitation carries an
 * e-mail, so no e-mail address, airdrop name or expiry, and no viewer's key, is served.
 */
import { beforeAll, expect, it } from 'vitest';
import { canonicalJson } from '../../src/protocol/canonical';
import { PublicPullResponse } from '../../src/protocol/publicVaults';
import type { Operation } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { addMember } from '../testing/members';
import { TestUser } from '../testing/TestUser';
import { clear, expectAccepted, newId, VaultActor } from '../testing/vaults';

describeEachDatabase('public vaults serve the member operations that judge authors', (env) => {
  let api: ApiClient;
  let owner: VaultActor;
  let carol: VaultActor;
  let victor: VaultActor;
  let vera: VaultActor;
  let lena: VaultActor;
  let vaultId: string;
  let carolMembership: string;
  let veraMembership: string;
  let victorMembership: string;
  let lenaMembership: string;
  let airdropMembership: string;

  /** A row as the server stored operations before R55 (an invitation carrying the e-mail). */
  async function insertLegacyOp(author: VaultActor, op: Operation): Promise<void> {
    const vault = await env.db.selectFrom('vaults').select('head_seq').where('id', '=', vaultId).executeTakeFirstOrThrow();
    const seq = Number(vault.head_seq) + 1;
    const body = canonicalJson(op);
    await env.db
      .insertInto('ops')
      .values({ vault_id: vaultId, seq, op_id: op.id, author_user_id: author.userId, type: op.body.type, object_id: op.objectId, body, body_bytes: Buffer.byteLength(body), received_at: Date.now() })
      .execute();
    await env.db.updateTable('vaults').set({ head_seq: seq }).where('id', '=', vaultId).execute();
  }

  async function pullAll(): Promise<{ ops: PublicPullResponse['ops']; raw: string }> {
    const ops: PublicPullResponse['ops'] = [];
    let raw = '';
    let after = 0;
    for (let guard = 0; guard < 100; guard++) {
      const response = await api.get(`/api/public/vaults/${vaultId}/ops?after=${after}&limit=3`);
      expect(response.status).toBe(200);
      raw += response.raw;
      const page = PublicPullResponse.parse(response.body);
      ops.push(...page.ops);
      after = page.nextAfter;
      if (!page.hasMore) break;
    }
    return { ops, raw };
  }

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
    carol = await VaultActor.create(env, api);
    victor = await VaultActor.create(env, api);
    vera = await VaultActor.create(env, api);
    lena = await VaultActor.create(env, api);
    vaultId = await owner.createVault({ isPublic: true });
    carolMembership = await addMember(owner, vaultId, carol, 'CONTRIBUTOR', null);
    victorMembership = await addMember(owner, vaultId, victor, 'VIEWER', null);
    veraMembership = await addMember(owner, vaultId, vera, 'VIEWER', null);
    expectAccepted(await owner.apply(vaultId, veraMembership, { type: 'member.changeRole', role: 'CONTRIBUTOR' }));
    expectAccepted(await owner.apply(vaultId, victorMembership, { type: 'member.revoke' }));
    const guest = await TestUser.create();
    airdropMembership = newId();
    expectAccepted(
      await owner.apply(vaultId, airdropMembership, {
        type: 'member.airdrop',
        name: clear('Link for Quentin Marsh'),
        role: 'CONTRIBUTOR',
        memberKey: guest.publicSigningKey,
        memberEncryptionKey: guest.publicEncryptionKey,
        expiresAt: Date.now() + 86_400_000,
        storageAllowance: 1000,
      }),
    );
    expectAccepted(await owner.apply(vaultId, airdropMembership, { type: 'member.revoke' }));
    lenaMembership = newId();
    await insertLegacyOp(
      owner,
      await owner.sign(vaultId, lenaMembership, { type: 'member.invite', email: lena.user.email, role: 'CONTRIBUTOR', memberKey: lena.user.publicSigningKey }),
    );
    await insertLegacyOp(lena, await lena.sign(vaultId, lenaMembership, { type: 'member.accept' }));
    expectAccepted(await carol.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: clear('Carol folder') }));
  });

  it('[R67] serves every operation of the memberships that may write, in seq order with the rest', async () => {
    const { ops } = await pullAll();
    const memberOps = ops.filter((o) => o.op.body.type.startsWith('member.'));
    expect(memberOps.map((o) => [o.op.objectId, o.op.body.type])).toEqual([
      [carolMembership, 'member.invite'],
      [carolMembership, 'member.accept'],
      [veraMembership, 'member.invite'],
      [veraMembership, 'member.accept'],
      [veraMembership, 'member.changeRole'],
    ]);
    expect(ops.map((o) => o.op.body.type)).toContain('folder.create');
    const seqs = ops.map((o) => o.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('[R67] serves nothing of a VIEWER, an airdrop or an invitation carrying an e-mail: no address, name, expiry or viewer key', async () => {
    const { ops, raw } = await pullAll();
    const objects = new Set(ops.map((o) => o.op.objectId));
    for (const id of [victorMembership, airdropMembership, lenaMembership]) expect(objects.has(id)).toBe(false);
    for (const secret of [lena.user.email, victor.user.email, 'Quentin Marsh', 'expiresAt', 'storageAllowance', victor.user.publicSigningKey]) {
      expect(raw).not.toContain(secret);
    }
  });
});
