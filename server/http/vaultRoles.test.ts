/**
 * Spec 000 section 6 and spec 001 section 6 on the server: every operation type (member.* and
 * key rotations included), the upload announcement, the chunk PUT and the upload cancel against
 * OWNER, CONTRIBUTOR, VIEWER, an INVITEE (a contributor who has not accepted yet), REVOKED and a
 * non-member; the same refusals in a public vault; the invitation resend; and the upload room
 * query, which only those who may upload ask. A refused attempt changes nothing: no row anywhere,
 * and not a field of the vault's own rows (head_seq, key count, memberships). Routes outside a
 * vault's roles are proved where they live: notifications only ever touch the caller's own
 * (notifications.test.ts), airdrop expiry and allowance in airdrop.test.ts, the public routes are
 * GET only (publicVaults.test.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { InviteResponse } from '../../src/protocol/members';
import { type FileVersion, type OperationBody, type OperationType, type PushResult, type Role, VaultStorageResponse } from '../../src/protocol/vaults';
import { ApiClient, errorCode } from '../testing/ApiClient';
import { describeEachDatabase, type TestEnv } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import {
  clear,
  countVaultRows,
  expectAccepted,
  expectRejected,
  insertMembership,
  makeFile,
  membershipIdOf,
  newId,
  sealed,
  VaultActor,
  vaultState,
} from '../testing/vaults';

type Actor = Role | 'INVITEE' | 'NON_MEMBER';
const ACTORS: Actor[] = ['OWNER', 'CONTRIBUTOR', 'VIEWER', 'INVITEE', 'REVOKED', 'NON_MEMBER'];
const OWNER_ONLY: Actor[] = ['OWNER'];
const WRITERS: Actor[] = ['OWNER', 'CONTRIBUTOR'];

/** The answer a refused actor gets: a non-member cannot tell the vault exists. */
function refusal(actor: Actor): { status: number; code: string } {
  return actor === 'NON_MEMBER' ? { status: 404, code: 'NOT_FOUND' } : { status: 403, code: 'FORBIDDEN' };
}

interface Fixture {
  vaultId: string;
  owner: VaultActor;
  actor: VaultActor;
  canWrite: boolean;
  /** Membership ids by actor (not NON_MEMBER). */
  memberships: Map<Actor, string>;
  /** Someone outside the vault who can be invited. */
  guest: VaultActor;
  /** A public vault: fields in clear, no key ring. */
  isPublic: boolean;
}

/** A name or message as the fixture's vault takes it: sealed in a private vault, clear in a public one. */
function field(f: Fixture) {
  return f.isPublic ? clear(newId()) : sealed();
}

/** A file uploaded by `by` in the form the fixture's vault takes. */
function uploadBy(f: Fixture, by: VaultActor, size: number) {
  return by.upload(f.vaultId, makeFile(size, { isPublic: f.isPublic }), { isPublic: f.isPublic });
}

function membershipOf(f: Fixture, actor: Actor): string {
  const id = f.memberships.get(actor);
  if (!id) throw new Error(`No membership of ${actor}`);
  return id;
}

/** The private vault's next key ring, sealed to every member holding keys except `without`. */
function rotation(f: Fixture, without: Actor[] = []) {
  const holders: Actor[] = ['OWNER', 'CONTRIBUTOR', 'VIEWER', 'INVITEE'];
  const sealedKeys = Object.fromEntries(holders.filter((a) => !without.includes(a)).map((a) => [membershipOf(f, a), sealed(80).c]));
  return { keyCount: 2, sealedKeys };
}

/** Prepares what the operation needs (as the owner) and returns the attempt's object and body. */
type Setup = (f: Fixture, env: TestEnv) => Promise<{ objectId: string; body: OperationBody }>;

async function folder(f: Fixture, hidden = false): Promise<string> {
  const id = newId();
  expectAccepted(await f.owner.apply(f.vaultId, id, { type: 'folder.create', parentId: null, name: field(f) }));
  if (hidden) expectAccepted(await f.owner.apply(f.vaultId, id, { type: 'node.hide' }));
  return id;
}

/** A memo posted by the owner; a public vault has no chat, so there it is only an id (roles are checked first). */
async function memo(f: Fixture): Promise<string> {
  const id = newId();
  if (f.isPublic) return id;
  expectAccepted(await f.owner.apply(f.vaultId, id, { type: 'memo.create', message: field(f) }));
  return id;
}

/** An upload by the actor when it may upload, else by the owner (the role check comes first). */
async function uploadedVersion(f: Fixture) {
  return uploadBy(f, f.canWrite ? f.actor : f.owner, 300);
}

async function archive(f: Fixture): Promise<void> {
  expectAccepted(await f.owner.apply(f.vaultId, f.vaultId, { type: 'vault.archive' }));
}

/** An NFT minted by the owner in the fixture's (public permanent) vault, into `collectionId`. */
async function mintedNft(f: Fixture, collectionId: string | null): Promise<string> {
  const id = newId();
  expectAccepted(await f.owner.apply(f.vaultId, id, nftMintBody(await uploadBy(f, f.owner, 50), collectionId)));
  return id;
}

function nftMintBody(version: FileVersion, collectionId: string | null): OperationBody {
  const address = 'a'.repeat(43);
  const metadata = { name: 'Art', description: '', topics: [], types: ['image' as const], owner: address, creator: address, fractionParts: null };
  return { type: 'nft.mint', collectionId, metadata, udl: null, ucm: false, version };
}

/**
 * member.airdrop's owner path belongs to the airdrop tests; its refusals are below. `permanent`:
 * the operation is tried in a public permanent vault (NFTs, R136) instead of a private cloud one.
 */
const OPERATIONS: Record<Exclude<OperationType, 'vault.create' | 'member.airdrop'>, { allowed: Actor[]; setup: Setup; permanent?: true }> = {
  'vault.rename': { allowed: OWNER_ONLY, setup: async (f) => ({ objectId: f.vaultId, body: { type: 'vault.rename', name: field(f) } }) },
  'vault.updateMetadata': {
    allowed: OWNER_ONLY,
    setup: async (f) => ({ objectId: f.vaultId, body: { type: 'vault.updateMetadata', description: field(f), tags: field(f) } }),
  },
  'vault.archive': { allowed: OWNER_ONLY, setup: async (f) => ({ objectId: f.vaultId, body: { type: 'vault.archive' } }) },
  'vault.restore': {
    allowed: OWNER_ONLY,
    setup: async (f) => {
      await archive(f);
      return { objectId: f.vaultId, body: { type: 'vault.restore' } };
    },
  },
  'vault.delete': {
    allowed: OWNER_ONLY,
    setup: async (f) => {
      await archive(f);
      return { objectId: f.vaultId, body: { type: 'vault.delete' } };
    },
  },
  'folder.create': { allowed: WRITERS, setup: async (f) => ({ objectId: newId(), body: { type: 'folder.create', parentId: null, name: field(f) } }) },
  'file.create': {
    allowed: WRITERS,
    setup: async (f) => ({ objectId: newId(), body: { type: 'file.create', parentId: null, name: field(f), version: await uploadedVersion(f) } }),
  },
  'file.addVersion': {
    allowed: WRITERS,
    setup: async (f) => {
      const fileId = newId();
      const first = await uploadBy(f, f.owner, 10);
      expectAccepted(await f.owner.apply(f.vaultId, fileId, { type: 'file.create', parentId: null, name: field(f), version: first }));
      return { objectId: fileId, body: { type: 'file.addVersion', version: await uploadedVersion(f) } };
    },
  },
  'node.rename': { allowed: WRITERS, setup: async (f) => ({ objectId: await folder(f), body: { type: 'node.rename', name: field(f) } }) },
  'node.move': {
    allowed: WRITERS,
    setup: async (f) => ({ objectId: await folder(f), body: { type: 'node.move', parentId: await folder(f) } }),
  },
  'node.hide': { allowed: WRITERS, setup: async (f) => ({ objectId: await folder(f), body: { type: 'node.hide' } }) },
  'node.restore': { allowed: WRITERS, setup: async (f) => ({ objectId: await folder(f, true), body: { type: 'node.restore' } }) },
  'node.delete': { allowed: WRITERS, setup: async (f) => ({ objectId: await folder(f, true), body: { type: 'node.delete' } }) },
  'note.draft': {
    allowed: WRITERS,
    setup: async (f) => {
      const noteId = newId();
      const version = await uploadBy(f, f.owner, 10);
      expectAccepted(await f.owner.apply(f.vaultId, noteId, { type: 'file.create', parentId: null, name: field(f), version }));
      return { objectId: noteId, body: { type: 'note.draft', baseVersionId: version.versionId, update: sealed(64) } };
    },
  },
  'member.invite': {
    allowed: OWNER_ONLY,
    setup: async (f) => ({
      objectId: newId(),
      body: { type: 'member.invite', role: 'VIEWER', memberKey: f.guest.user.publicSigningKey, keys: sealed(80).c, keyCount: 1 },
    }),
  },
  'member.confirm': {
    allowed: OWNER_ONLY,
    setup: async (f, env) => ({
      objectId: await insertMembership(env.db, f.vaultId, f.guest.userId, 'VIEWER', 'INVITED'),
      body: { type: 'member.confirm', keys: sealed(80).c, keyCount: 1 },
    }),
  },
  // Only the invitee answers their own invitation; an owner cannot accept or reject for them.
  'member.accept': { allowed: ['INVITEE'], setup: async (f) => ({ objectId: membershipOf(f, 'INVITEE'), body: { type: 'member.accept' } }) },
  'member.reject': { allowed: ['INVITEE'], setup: async (f) => ({ objectId: membershipOf(f, 'INVITEE'), body: { type: 'member.reject' } }) },
  'member.leave': { allowed: ['CONTRIBUTOR'], setup: async (f) => ({ objectId: membershipOf(f, 'CONTRIBUTOR'), body: { type: 'member.leave' } }) },
  'member.changeRole': {
    allowed: OWNER_ONLY,
    setup: async (f) => ({ objectId: membershipOf(f, 'VIEWER'), body: { type: 'member.changeRole', role: 'CONTRIBUTOR' } }),
  },
  'member.revoke': {
    allowed: OWNER_ONLY,
    setup: async (f) => ({ objectId: membershipOf(f, 'VIEWER'), body: { type: 'member.revoke', rotation: rotation(f, ['VIEWER']) } }),
  },
  // Only the rotation a leave asked for (SYNC_SPEC R20): the vault is marked as a leave marks it.
  'vault.rotateKeys': {
    allowed: WRITERS,
    setup: async (f, env) => {
      await env.db.updateTable('vaults').set({ needs_rotation: f.isPublic ? 0 : 1 }).where('id', '=', f.vaultId).execute();
      return { objectId: f.vaultId, body: { type: 'vault.rotateKeys', rotation: rotation(f) } };
    },
  },
  // Chat (spec 000 section 6): VIEWER cannot post messages or react.
  'memo.create': { allowed: WRITERS, setup: async (f) => ({ objectId: newId(), body: { type: 'memo.create', message: field(f) } }) },
  'memo.react': {
    allowed: WRITERS,
    setup: async (f) => ({ objectId: await memo(f), body: { type: 'memo.react', reaction: field(f), isAdded: true } }),
  },
  // Atomic NFTs (spec 002 section 6, R136): VIEWER cannot mint.
  'nft.mint': {
    allowed: WRITERS,
    permanent: true,
    setup: async (f) => ({ objectId: newId(), body: nftMintBody(await uploadedVersion(f), null) }),
  },
  'nft.collection': {
    allowed: WRITERS,
    permanent: true,
    setup: async (f) => {
      const collectionId = newId();
      const nftId = await mintedNft(f, collectionId);
      const address = 'a'.repeat(43);
      const metadata = { name: 'Set', description: '', topics: [], types: ['image' as const], owner: address, creator: address };
      return { objectId: collectionId, body: { type: 'nft.collection', metadata, udl: null, ucm: false, nftIds: [nftId], thumbnail: null, banner: null } };
    },
  },
};

describeEachDatabase('vault roles', (env) => {
  let api: ApiClient;
  const actors = new Map<Actor, VaultActor>();

  let guest: VaultActor;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    for (const actor of ACTORS) actors.set(actor, await VaultActor.create(env, api));
    guest = await VaultActor.create(env, api);
  });

  function actorFor(actor: Actor): VaultActor {
    const found = actors.get(actor);
    if (!found) throw new Error(`No ${actor}`);
    return found;
  }

  /** A cloud vault of OWNER (private unless asked) with the other roles inserted as memberships. */
  async function fixture(actor: Actor, isPublic = false, isCloud = true): Promise<Fixture> {
    const owner = actorFor('OWNER');
    const vaultId = await owner.createVault({ isPublic, isCloud });
    const memberships = new Map<Actor, string>([
      ['OWNER', await membershipIdOf(env.db, vaultId, owner.userId)],
      ['CONTRIBUTOR', await insertMembership(env.db, vaultId, actorFor('CONTRIBUTOR').userId, 'CONTRIBUTOR')],
      ['VIEWER', await insertMembership(env.db, vaultId, actorFor('VIEWER').userId, 'VIEWER')],
      [
        'INVITEE',
        await insertMembership(env.db, vaultId, actorFor('INVITEE').userId, 'CONTRIBUTOR', 'PENDING', { invitedByUserId: owner.userId }),
      ],
      ['REVOKED', await insertMembership(env.db, vaultId, actorFor('REVOKED').userId, 'REVOKED', 'REVOKED')],
    ]);
    return { vaultId, owner, actor: actorFor(actor), canWrite: WRITERS.includes(actor), memberships, guest, isPublic };
  }

  /**
   * Pushes one operation as the actor. Invitations go through their own route (the only way in,
   * which checks the member limit and sends the e-mail); a refusal of the whole request reads as
   * a rejected operation, like the push's per-operation answer.
   */
  async function attempt(f: Fixture, objectId: string, body: OperationBody): Promise<PushResult | undefined> {
    if (body.type !== 'member.invite') return f.actor.apply(f.vaultId, objectId, body);
    const op = await f.actor.sign(f.vaultId, objectId, body);
    const response = await f.actor.api.post(`/api/vaults/${f.vaultId}/invitations`, { ops: [op] }, { token: f.actor.token });
    if (response.status !== 200) return { id: op.id, status: 'rejected', error: { code: errorCode(response) ?? '', message: '' } };
    return InviteResponse.parse(response.body).results[0];
  }

  it('a member.invite pushed through POST /vaults/ops is refused: invitations have their own route', async () => {
    const f = await fixture('OWNER');
    const { objectId, body } = await OPERATIONS['member.invite'].setup(f, env);
    await expectUnchanged(f.vaultId, async () => expectRejected(await f.actor.apply(f.vaultId, objectId, body), 'INVALID_OPERATION'));
  });

  /** The attempt changed nothing: no row anywhere, no field of the vault's rows. */
  async function expectUnchanged(vaultId: string, attempt: () => Promise<void>): Promise<void> {
    const rows = await countVaultRows(env.db);
    const state = await vaultState(env.db, vaultId);
    await attempt();
    expect(await countVaultRows(env.db)).toEqual(rows);
    expect(await vaultState(env.db, vaultId)).toEqual(state);
  }

  for (const [type, { allowed, setup, permanent }] of Object.entries(OPERATIONS)) {
    describe(type, () => {
      for (const actor of ACTORS) {
        const expected = allowed.includes(actor) ? 'accepted' : refusal(actor).code;
        it(`${actor}: ${expected}`, async () => {
          const f = permanent ? await fixture(actor, true, false) : await fixture(actor);
          const { objectId, body } = await setup(f, env);
          if (allowed.includes(actor)) {
            const head = (await vaultState(env.db, f.vaultId)).vault as { head_seq: number };
            expect(expectAccepted(await attempt(f, objectId, body))).toBe(Number(head.head_seq) + 1);
          } else {
            await expectUnchanged(f.vaultId, async () => expectRejected(await attempt(f, objectId, body), refusal(actor).code));
          }
        });
      }
    });
  }

  // A public vault is readable by anyone through the public routes, which are GET only; writing
  // to it still takes a membership with the right role. Every refusal above holds there too.
  describe('public vault', () => {
    for (const [type, { allowed, setup, permanent }] of Object.entries(OPERATIONS)) {
      for (const actor of ACTORS.filter((a) => !allowed.includes(a))) {
        it(`${type}, ${actor}: ${refusal(actor).code}`, async () => {
          const f = await fixture(actor, true, !permanent);
          const { objectId, body } = await setup(f, env);
          await expectUnchanged(f.vaultId, async () => expectRejected(await attempt(f, objectId, body), refusal(actor).code));
        });
      }
    }

    for (const actor of ACTORS.filter((a) => !WRITERS.includes(a))) {
      it(`upload announcement and chunk PUT, ${actor}: ${refusal(actor).code}`, async () => {
        const f = await fixture(actor, true);
        const file = makeFile(100, { isPublic: true });
        const blobId = newId();
        expectStatus(await f.owner.announce(f.vaultId, blobId, file.storedSize, 1), 200);
        await expectUnchanged(f.vaultId, async () => {
          expectError(await f.actor.announce(f.vaultId, newId(), 100, 1), refusal(actor).status, refusal(actor).code);
          expectError(await f.actor.putChunk(f.vaultId, blobId, 0, file.chunks[0] ?? Buffer.alloc(0)), refusal(actor).status, refusal(actor).code);
        });
      });
    }
  });

  // The invitation e-mail again (POST .../members/{id}/resend): an owner's action on a pending invitation.
  describe('resend invite', () => {
    for (const actor of ACTORS) {
      it(`${actor}: ${actor === 'OWNER' ? 'sent' : refusal(actor).code}`, async () => {
        const f = await fixture(actor);
        const url = `/api/vaults/${f.vaultId}/members/${membershipOf(f, 'INVITEE')}/resend`;
        const resend = () => api.post(url, undefined, { token: f.actor.token });
        if (actor === 'OWNER') expectStatus(await resend(), 200);
        else await expectUnchanged(f.vaultId, async () => expectError(await resend(), refusal(actor).status, refusal(actor).code));
      });
    }
  });

  describe('upload announcement', () => {
    for (const actor of ACTORS) {
      it(`${actor}: ${WRITERS.includes(actor) ? 'reserved' : refusal(actor).code}`, async () => {
        const f = await fixture(actor);
        if (WRITERS.includes(actor)) {
          expectStatus(await f.actor.announce(f.vaultId, newId(), 100, 1), 200);
        } else {
          await expectUnchanged(f.vaultId, async () => expectError(await f.actor.announce(f.vaultId, newId(), 100, 1), refusal(actor).status, refusal(actor).code));
        }
      });
    }
  });

  describe('upload room (GET /vaults/{id}/storage)', () => {
    for (const actor of ACTORS) {
      it(`${actor}: ${WRITERS.includes(actor) ? 'answered' : refusal(actor).code}`, async () => {
        const f = await fixture(actor);
        const response = await api.get(`/api/vaults/${f.vaultId}/storage`, { token: f.actor.token });
        if (WRITERS.includes(actor)) expect(VaultStorageResponse.parse(response.body).available).toBeGreaterThan(0);
        else expectError(response, refusal(actor).status, refusal(actor).code);
      });
    }
  });

  describe('chunk PUT', () => {
    for (const actor of ACTORS) {
      it(`${actor}: ${WRITERS.includes(actor) ? 'stored' : refusal(actor).code}`, async () => {
        const f = await fixture(actor);
        const file = makeFile(100);
        const blobId = newId();
        expectStatus(await (f.canWrite ? f.actor : f.owner).announce(f.vaultId, blobId, file.storedSize, 1), 200);
        const chunk = file.chunks[0] ?? Buffer.alloc(0);
        if (WRITERS.includes(actor)) {
          expectStatus(await f.actor.putChunk(f.vaultId, blobId, 0, chunk), 200);
        } else {
          await expectUnchanged(f.vaultId, async () => expectError(await f.actor.putChunk(f.vaultId, blobId, 0, chunk), refusal(actor).status, refusal(actor).code));
        }
      });
    }

    it('only the uploader may add chunks to an upload', async () => {
      const f = await fixture('CONTRIBUTOR');
      const blobId = newId();
      expectStatus(await f.owner.announce(f.vaultId, blobId, 100, 1), 200);
      expectError(await f.actor.putChunk(f.vaultId, blobId, 0, Buffer.alloc(100)), 404, 'NOT_FOUND');
    });
  });

  describe('batch announcement and chunk batch (a group of small files)', () => {
    for (const actor of ACTORS) {
      it(`${actor}: ${WRITERS.includes(actor) ? 'reserved and stored' : refusal(actor).code}`, async () => {
        const f = await fixture(actor);
        const file = makeFile(100);
        const blobId = newId();
        const announce = () => api.post(`/api/vaults/${f.vaultId}/blobs/batch`, { blobs: [{ blobId, storedSize: file.storedSize, chunkCount: 1 }] }, { token: f.actor.token });
        const send = () => f.actor.putChunkBatch(f.vaultId, [{ blobId, bytes: file.chunks[0] ?? Buffer.alloc(0) }]);
        if (WRITERS.includes(actor)) {
          expectStatus(await announce(), 200);
          expectStatus(await send(), 200);
          expect(await env.db.selectFrom('blob_chunks').select('idx').where('blob_id', '=', blobId).execute()).toHaveLength(1);
        } else {
          await expectUnchanged(f.vaultId, async () => expectError(await announce(), refusal(actor).status, refusal(actor).code));
          // Not into someone else's upload either.
          expectStatus(await f.owner.announce(f.vaultId, blobId, file.storedSize, 1), 200);
          await expectUnchanged(f.vaultId, async () => expectError(await send(), refusal(actor).status, refusal(actor).code));
        }
      });
    }
  });

  // Cancelling is open to any member for their own upload (a contributor made viewer may still
  // release what they reserved); anyone else's upload is not found, and a removed member is refused.
  describe('upload cancel (DELETE blob)', () => {
    const refused = (actor: Actor) => (actor === 'REVOKED' ? refusal(actor) : { status: 404, code: 'NOT_FOUND' });
    for (const actor of ACTORS) {
      it(`${actor}: ${WRITERS.includes(actor) ? 'released' : refused(actor).code}`, async () => {
        const f = await fixture(actor);
        const file = makeFile(100);
        const blobId = newId();
        const uploader = f.canWrite ? f.actor : f.owner;
        expectStatus(await uploader.announce(f.vaultId, blobId, file.storedSize, 1), 200);
        expectStatus(await uploader.putChunk(f.vaultId, blobId, 0, file.chunks[0] ?? Buffer.alloc(0)), 200);
        const cancel = () => api.request('DELETE', `/api/vaults/${f.vaultId}/blobs/${blobId}`, undefined, { token: f.actor.token });
        if (WRITERS.includes(actor)) {
          expectStatus(await cancel(), 200);
          expect(await env.db.selectFrom('blobs').select('id').where('id', '=', blobId).execute()).toEqual([]);
        } else {
          await expectUnchanged(f.vaultId, async () => expectError(await cancel(), refused(actor).status, refused(actor).code));
        }
      });
    }
  });

  describe('member.airdrop', () => {
    for (const actor of ACTORS.filter((a) => a !== 'OWNER')) {
      it(`${actor}: ${refusal(actor).code}`, async () => {
        const f = await fixture(actor);
        const body: OperationBody = {
          type: 'member.airdrop',
          name: sealed(),
          role: 'VIEWER',
          memberKey: f.guest.user.publicSigningKey,
          memberEncryptionKey: f.guest.user.publicEncryptionKey,
          keys: sealed(80).c,
          keyCount: 1,
          expiresAt: Date.now() + 86_400_000,
          storageAllowance: 0,
        };
        await expectUnchanged(f.vaultId, async () => expectRejected(await f.actor.apply(f.vaultId, newId(), body), refusal(actor).code));
      });
    }
  });

  it('lets members read (pull and download) until their access is removed; an invitee pulls (the terms) but gets no file bytes before accepting', async () => {
    const f = await fixture('OWNER');
    const version = await f.owner.upload(f.vaultId, makeFile(50));
    expectAccepted(await f.owner.apply(f.vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version }));
    const pulls: Record<Actor, number> = { OWNER: 200, CONTRIBUTOR: 200, VIEWER: 200, INVITEE: 200, REVOKED: 403, NON_MEMBER: 404 };
    const chunks: Record<Actor, number> = { ...pulls, INVITEE: 403 };
    for (const actor of ACTORS) {
      const reader = actorFor(actor);
      const pull = await api.get(`/api/vaults/${f.vaultId}/ops?after=0`, { token: reader.token });
      const chunk = await reader.getChunk(f.vaultId, version.blobId, 0);
      expect({ actor, pull: pull.status, chunk: chunk.statusCode }).toEqual({ actor, pull: pulls[actor], chunk: chunks[actor] });
      if (pull.status !== 200) expect(errorCode(pull)).toBe(refusal(actor).code);
    }
    // Once the invitee accepts, the bytes are theirs to read.
    await env.db.updateTable('memberships').set({ status: 'ACCEPTED' }).where('id', '=', f.memberships.get('INVITEE')!).execute();
    expect((await actorFor('INVITEE').getChunk(f.vaultId, version.blobId, 0)).statusCode).toBe(200);
  });

  it('refuses additions to an archived vault and deletes a vault only once archived', async () => {
    const f = await fixture('OWNER');
    const { owner, vaultId } = f;
    const folderId = await folder(f);
    const fileVersion = await owner.upload(vaultId, makeFile(20));
    const fileId = newId();
    expectAccepted(await owner.apply(vaultId, fileId, { type: 'file.create', parentId: null, name: sealed(), version: fileVersion }));
    const pending = await owner.upload(vaultId, makeFile(30));

    expectRejected(await owner.apply(vaultId, vaultId, { type: 'vault.delete' }), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, vaultId, { type: 'vault.restore' }), 'INVALID_OPERATION');
    await archive(f);
    const before = await countVaultRows(env.db);
    expectRejected(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }), 'VAULT_ARCHIVED');
    expectRejected(await owner.apply(vaultId, fileId, { type: 'file.addVersion', version: pending }), 'VAULT_ARCHIVED');
    expectRejected(await owner.apply(vaultId, folderId, { type: 'node.rename', name: sealed() }), 'VAULT_ARCHIVED');
    expectRejected(await owner.apply(vaultId, fileId, { type: 'node.move', parentId: folderId }), 'VAULT_ARCHIVED');
    expectRejected(await owner.apply(vaultId, vaultId, { type: 'vault.rename', name: sealed() }), 'VAULT_ARCHIVED');
    expectError(await owner.announce(vaultId, newId(), 10, 1), 409, 'VAULT_ARCHIVED');
    expect(await countVaultRows(env.db)).toEqual(before);

    expectAccepted(await owner.apply(vaultId, vaultId, { type: 'vault.delete' }));
    const vault = await env.db.selectFrom('vaults').select('status').where('id', '=', vaultId).executeTakeFirstOrThrow();
    expect(vault.status).toBe('DELETED');
    // A deleted cloud vault frees its storage, reservations included.
    expect(await env.db.selectFrom('blobs').select('id').where('vault_id', '=', vaultId).execute()).toEqual([]);
    expectRejected(await owner.apply(vaultId, vaultId, { type: 'vault.restore' }), 'INVALID_OPERATION');
  });
});
