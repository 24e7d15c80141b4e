/**
 * Issue 19: a vault's verified history imported onto another server (docs/SYNC_SPEC.md R91-R93).
 * Server A (SQLite) is where the vault was made by two users; server B (each database) is where
 * one of them restores it from A's operations, then uploads the versions' stored chunks.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { addKey, createKeyRing, type KeyRing } from '../../src/crypto/keyRing';
import { PullResponse, type SequencedOperation } from '../../src/protocol/vaults';
import type { VaultHistoryRun } from '../../src/protocol/vaultHistory';
import { IMPORT_REFUSED_SEQ, VaultImportResponse } from '../../src/protocol/vaultImport';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase, TestEnv } from '../testing/databases';
import { expectError, expectStatus, newSession } from '../testing/flows';
import { addMember, membersOf, sealNewest, sealRingTo } from '../testing/members';
import { expectAccepted, makeFile, newId, type StoredFile, VaultActor } from '../testing/vaults';
import { TestUser } from '../testing/TestUser';
import { IMPORT_RUNS_PER_MINUTE } from './vaultRoutes';

interface SourceVault {
  vaultId: string;
  owner: TestUser;
  member: TestUser;
  history: SequencedOperation[];
  files: { blobId: string; file: StoredFile }[];
}

const source = new TestEnv('sqlite');
let sourceApp: FastifyInstance;

beforeAll(async () => {
  await source.setUp();
  sourceApp = await source.buildApp();
}, 60_000);

afterAll(async () => {
  await source.tearDown();
});

/**
 * On server A: a private permanent vault with a folder, a file of two chunks, a note, a memo, an
 * invitation accepted, and a rotation by revoke, made by its owner and one member; its whole log.
 */
async function makeSourceVault(): Promise<SourceVault> {
  const api = new ApiClient(sourceApp);
  const owner = await VaultActor.create(source, api);
  const member = await VaultActor.create(source, api);
  const vaultId = newId();
  let ring: KeyRing = createKeyRing();
  const field = (objectId: string, name: 'name' | 'message', text: string) => sealNewest(ring, { vaultId, objectId, field: name }, text);
  expectAccepted(
    await owner.apply(vaultId, vaultId, {
      type: 'vault.create',
      isPublic: false,
      isCloud: false,
      name: await field(vaultId, 'name', 'Family archive'),
      ownerKeys: await sealRingTo(ring, owner.user.publicEncryptionKey),
    }),
  );
  const folderId = newId();
  expectAccepted(await owner.apply(vaultId, folderId, { type: 'folder.create', parentId: null, name: await field(folderId, 'name', 'Letters') }));
  const photo = makeFile(4 * 1024 * 1024 + 1_000, { chunkSize: 4 * 1024 * 1024 });
  const photoVersion = await owner.upload(vaultId, photo);
  const photoId = newId();
  expectAccepted(await owner.apply(vaultId, photoId, { type: 'file.create', parentId: folderId, name: await field(photoId, 'name', 'photo.jpg'), version: photoVersion }));

  const membershipId = await addMember(owner, vaultId, member, 'CONTRIBUTOR', ring);
  const note = makeFile(300);
  const noteVersion = await member.upload(vaultId, note);
  const noteId = newId();
  expectAccepted(await member.apply(vaultId, noteId, { type: 'file.create', parentId: null, name: await field(noteId, 'name', 'Notes.md'), version: noteVersion }));
  const memoId = newId();
  expectAccepted(await member.apply(vaultId, memoId, { type: 'memo.create', message: await field(memoId, 'message', 'Found the old letters') }));

  const ownerMembership = (await membersOf(owner, vaultId)).find((m) => m.userId === owner.userId);
  if (!ownerMembership) throw new Error('No owner membership');
  ring = addKey(ring);
  expectAccepted(
    await owner.apply(vaultId, membershipId, {
      type: 'member.revoke',
      rotation: { keyCount: 2, sealedKeys: { [ownerMembership.membershipId]: await sealRingTo(ring, owner.user.publicEncryptionKey) } },
    }),
  );
  const afterId = newId();
  expectAccepted(await owner.apply(vaultId, afterId, { type: 'folder.create', parentId: null, name: await field(afterId, 'name', 'After the revoke') }));

  // The log as any member's device reads it from A's pull API.
  const pulled = await api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: owner.token });
  expectStatus(pulled, 200);
  const page = PullResponse.parse(pulled.body);
  expect(page.hasMore).toBe(false);
  return {
    vaultId,
    owner: owner.user,
    member: member.user,
    history: page.ops,
    files: [
      { blobId: photoVersion.blobId, file: photo },
      { blobId: noteVersion.blobId, file: note },
    ],
  };
}

/** The R84 run of `history` from `seqFrom` to `seqTo`. */
function runOf(vaultId: string, history: SequencedOperation[], seqFrom: number, seqTo: number): VaultHistoryRun {
  const ops = history.filter((entry) => entry.seq >= seqFrom && entry.seq <= seqTo).map(({ seq, receivedAt, op }) => ({ seq, receivedAt, op }));
  return { format: 'cairn-vault-history', version: 1, vaultId, seqFrom, seqTo, ops };
}

describeEachDatabase('importing a vault\'s history (R91-R93)', (env) => {
  let app: FastifyInstance;
  let api: ApiClient;

  beforeAll(async () => {
    app = await env.buildApp();
    api = new ApiClient(app);
  });

  /** Signs `user` up on server B; answers their session token. */
  async function signedInOnB(user: TestUser): Promise<{ token: string; userId: string }> {
    const session = await newSession(api, env.dataDir, user);
    return { token: session.token, userId: session.user.id };
  }

  function postRun(token: string, run: VaultHistoryRun, isLast: boolean) {
    return api.post(`/api/vaults/${run.vaultId}/import`, { run, isLast }, { token });
  }

  async function rowCounts() {
    const counts: Record<string, number> = {};
    for (const table of ['users', 'vaults', 'vault_imports', 'memberships', 'nodes', 'ops', 'blobs', 'notifications', 'storage_transactions'] as const) {
      const row = await env.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      counts[table] = Number(row.n);
    }
    return counts;
  }

  it('[R91] [R92] [R93] a member imports the vault in two runs: the same ops at the same seqs, nobody notified, nothing re-posted, and the chunks uploaded after download byte for byte', async () => {
    const vault = await makeSourceVault();
    const head = vault.history.length;
    expect(head).toBe(9);
    const owner = await signedInOnB(vault.owner);

    const first = await postRun(owner.token, runOf(vault.vaultId, vault.history, 1, 4), false);
    expectStatus(first, 200);
    expect(VaultImportResponse.parse(first.body)).toEqual({ vaultId: vault.vaultId, headSeq: 4, status: 'IN_PROGRESS' });
    // Until the import is done, the vault takes nothing but its next run.
    const early = new VaultActor(api, vault.owner, owner.token, owner.userId);
    const pushed = await early.apply(vault.vaultId, newId(), { type: 'folder.create', parentId: null, name: { key: 0, c: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } });
    expect(pushed).toMatchObject({ status: 'rejected', error: { code: 'CONFLICT' } });
    const last = await postRun(owner.token, runOf(vault.vaultId, vault.history, 5, head), true);
    expectStatus(last, 200);
    expect(VaultImportResponse.parse(last.body)).toEqual({ vaultId: vault.vaultId, headSeq: head, status: 'DONE' });

    // B serves the same signed operations at the same seqs.
    const pulled = await api.get(`/api/vaults/${vault.vaultId}/ops?after=0`, { token: owner.token });
    expectStatus(pulled, 200);
    const served = PullResponse.parse(pulled.body);
    expect(served.headSeq).toBe(head);
    expect(served.ops.map(({ seq, op }) => ({ seq, op }))).toEqual(vault.history.map(({ seq, op }) => ({ seq, op })));
    expect(served.ops.map((entry) => entry.receivedAt)).toEqual(vault.history.map((entry) => entry.receivedAt));

    // The member who has no account on B is a placeholder bound to their keys, revoked as on A.
    const members = await membersOf(new VaultActor(api, vault.owner, owner.token, owner.userId), vault.vaultId);
    expect(members.map((m) => ({ address: m.address, status: m.status })).sort((a, b) => a.address.localeCompare(b.address))).toEqual(
      [
        { address: vault.owner.address, status: 'ACCEPTED' },
        { address: vault.member.address, status: 'REVOKED' },
      ].sort((a, b) => a.address.localeCompare(b.address)),
    );
    expect(await env.db.selectFrom('notifications').select('id').where('vault_id', '=', vault.vaultId).execute()).toEqual([]);
    // The versions are on the network already: nothing is scheduled to be posted again.
    expect(await env.db.selectFrom('storage_transactions').select('id').where('vault_id', '=', vault.vaultId).execute()).toEqual([]);

    // The restoring device uploads each version's stored chunks; B keeps only the signed bytes.
    const device = new VaultActor(api, vault.owner, owner.token, owner.userId);
    const [photo] = vault.files;
    const forged = Buffer.from(photo!.file.chunks[0]!);
    forged[0] = forged[0]! ^ 0xff;
    expectError(await device.putChunk(vault.vaultId, photo!.blobId, 0, forged), 422, 'UNPROCESSABLE');
    for (const { blobId, file } of vault.files) {
      for (const [index, chunk] of file.chunks.entries()) expectStatus(await device.putChunk(vault.vaultId, blobId, index, chunk), 200);
    }
    for (const { blobId, file } of vault.files) {
      for (const [index, chunk] of file.chunks.entries()) {
        const download = await device.getChunk(vault.vaultId, blobId, index);
        expect(download.statusCode).toBe(200);
        expect(Buffer.compare(download.rawPayload, chunk)).toBe(0);
      }
    }

    // A second import of a vault B has is refused, whoever asks, and changes nothing.
    const before = await rowCounts();
    expectError(await postRun(owner.token, runOf(vault.vaultId, vault.history, 1, head), true), 409, 'CONFLICT');
    const stranger = await signedInOnB(await TestUser.create());
    expectError(await postRun(stranger.token, runOf(vault.vaultId, vault.history, 1, head), true), 409, 'CONFLICT');
    expect({ ...(await rowCounts()), users: 0 }).toEqual({ ...before, users: 0 });

    // The member signs up on B with their phrase: the placeholder becomes their account.
    const member = await signedInOnB(vault.member);
    const theirs = await env.db.selectFrom('memberships').select(['status']).where('vault_id', '=', vault.vaultId).where('user_id', '=', member.userId).execute();
    expect(theirs).toEqual([{ status: 'REVOKED' }]);
  }, 120_000);

  it('[R91] a tampered operation refuses the import, naming its seq, and leaves nothing behind (an earlier run included)', async () => {
    const vault = await makeSourceVault();
    const owner = await signedInOnB(vault.owner);
    const before = await rowCounts();
    expectStatus(await postRun(owner.token, runOf(vault.vaultId, vault.history, 1, 4), false), 200);

    const rest = runOf(vault.vaultId, vault.history, 5, vault.history.length);
    const tampered = rest.ops.find((entry) => entry.seq === 7)!;
    tampered.op = { ...tampered.op, createdAt: tampered.op.createdAt + 1 };
    const refused = await postRun(owner.token, rest, true);
    expectError(refused, 403, 'INVALID_SIGNATURE');
    expect((refused.body as { error: { details?: { path: string; message: string }[] } }).error.details).toContainEqual({ path: IMPORT_REFUSED_SEQ, message: '7' });
    expect(await rowCounts()).toEqual(before);
  }, 120_000);

  it('[R99] an account may send IMPORT_RUNS_PER_MINUTE import requests a minute; past that 429 changing nothing, another account is not held back, and the next minute it goes on', async () => {
    const vault = await makeSourceVault();
    const owner = await signedInOnB(vault.owner);
    const other = await signedInOnB(await TestUser.create());
    // Runs that do not start at seq 1: each refused at once, so the budget is what is tested.
    const late = runOf(vault.vaultId, vault.history, 2, vault.history.length);
    for (let n = 0; n < IMPORT_RUNS_PER_MINUTE; n += 1) expectError(await postRun(owner.token, late, true), 422, 'UNPROCESSABLE');
    const before = await rowCounts();
    // Past the budget even a good first run is refused, and nothing is imported.
    expectError(await postRun(owner.token, runOf(vault.vaultId, vault.history, 1, vault.history.length), true), 429, 'RATE_LIMITED');
    expect(await rowCounts()).toEqual(before);
    expectError(await postRun(other.token, late, true), 422, 'UNPROCESSABLE');
    env.clock.advance(60_000);
    expectStatus(await postRun(owner.token, runOf(vault.vaultId, vault.history, 1, vault.history.length), true), 200);
  }, 120_000);

  it('[R91] an importer who is not an accepted member at the end is refused, and nothing is left', async () => {
    const vault = await makeSourceVault();
    const member = await signedInOnB(vault.member);
    const before = await rowCounts();
    const refused = await postRun(member.token, runOf(vault.vaultId, vault.history, 1, vault.history.length), true);
    expectError(refused, 403, 'FORBIDDEN');
    expect(await rowCounts()).toEqual(before);
    // Nobody can import a history whose first run is not from seq 1 either.
    const owner = await signedInOnB(vault.owner);
    expectError(await postRun(owner.token, runOf(vault.vaultId, vault.history, 2, vault.history.length), true), 422, 'UNPROCESSABLE');
    expect(await env.db.selectFrom('vaults').select('id').where('id', '=', vault.vaultId).execute()).toEqual([]);
  }, 120_000);

  it('[R92] storage limits apply: versions beyond the owner\'s permanent storage here refuse the import at their seq, leaving nothing', async () => {
    const small = new ApiClient(await env.buildApp({ config: { storageAllowances: { cloud: 1_000_000_000, permanent: 1_000_000 } } }));
    const vault = await makeSourceVault();
    const session = await newSession(small, env.dataDir, vault.owner);
    const before = await rowCounts();
    const refused = await small.post(
      `/api/vaults/${vault.vaultId}/import`,
      { run: runOf(vault.vaultId, vault.history, 1, vault.history.length), isLast: true },
      { token: session.token },
    );
    expectError(refused, 422, 'NOT_ENOUGH_STORAGE');
    // Seq 3 is the 4 MB photo's file.create.
    expect((refused.body as { error: { details?: { path: string; message: string }[] } }).error.details).toContainEqual({ path: IMPORT_REFUSED_SEQ, message: '3' });
    expect(await rowCounts()).toEqual(before);
  }, 120_000);

  it('[R92] an invitation signed before issue 18 (carrying the e-mail, R55) is imported as it was', async () => {
    const ownerUser = await TestUser.create();
    const invitee = await TestUser.create();
    const author = new VaultActor(api, ownerUser, '', '');
    const vaultId = newId();
    const ring = createKeyRing();
    const create = await author.sign(vaultId, vaultId, {
      type: 'vault.create',
      isPublic: false,
      isCloud: true,
      name: await sealNewest(ring, { vaultId, objectId: vaultId, field: 'name' }, 'Old vault'),
      ownerKeys: await sealRingTo(ring, ownerUser.publicEncryptionKey),
    });
    const invitation = await author.sign(vaultId, newId(), {
      type: 'member.invite',
      email: invitee.email,
      role: 'VIEWER',
      memberKey: invitee.publicSigningKey,
      keys: await sealRingTo(ring, invitee.publicEncryptionKey),
      keyCount: 1,
    });
    const receivedAt = Date.now() - 60_000;
    const history = [
      { seq: 1, receivedAt, op: create },
      { seq: 2, receivedAt, op: invitation },
    ];
    const session = await signedInOnB(ownerUser);
    expectStatus(await postRun(session.token, runOf(vaultId, history, 1, 2), true), 200);
    const pulled = PullResponse.parse((await api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: session.token })).body);
    expect(pulled.ops.map(({ seq, op }) => ({ seq, op }))).toEqual(history.map(({ seq, op }) => ({ seq, op })));
  }, 120_000);

  it('[R91] an operation whose id this server already has is refused at its seq, and nothing is left', async () => {
    const ownerUser = await TestUser.create();
    const author = new VaultActor(api, ownerUser, '', '');
    const session = await signedInOnB(ownerUser);
    const historyOf = async (vaultId: string, folderOpId: string) => {
      const ring = createKeyRing();
      const receivedAt = Date.now() - 60_000;
      const folderId = newId();
      return [
        {
          seq: 1,
          receivedAt,
          op: await author.sign(vaultId, vaultId, {
            type: 'vault.create',
            isPublic: false,
            isCloud: true,
            name: await sealNewest(ring, { vaultId, objectId: vaultId, field: 'name' }, 'A vault'),
            ownerKeys: await sealRingTo(ring, ownerUser.publicEncryptionKey),
          }),
        },
        { seq: 2, receivedAt, op: await author.sign(vaultId, folderId, { type: 'folder.create', parentId: null, name: await sealNewest(ring, { vaultId, objectId: folderId, field: 'name' }, 'F') }, folderOpId) },
      ];
    };
    const reused = newId();
    const first = newId();
    expectStatus(await postRun(session.token, runOf(first, await historyOf(first, reused), 1, 2), true), 200);
    const before = await rowCounts();
    const second = newId();
    const refused = await postRun(session.token, runOf(second, await historyOf(second, reused), 1, 2), true);
    expectError(refused, 422, 'INVALID_OPERATION');
    expect((refused.body as { error: { details?: { path: string; message: string }[] } }).error.details).toContainEqual({ path: IMPORT_REFUSED_SEQ, message: '2' });
    expect(await rowCounts()).toEqual(before);
  }, 120_000);

  it('[R93] the history relay\'s position moves to the imported head, so the imported runs are not posted again', async () => {
    // `vaults.history_seq` belongs to the history relay (R84, its own migration): made here when absent.
    const columns = (await env.db.introspection.getTables()).find((table) => table.name === 'vaults')?.columns ?? [];
    if (!columns.some((column) => column.name === 'history_seq')) {
      await env.db.schema.alterTable('vaults').addColumn('history_seq', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    }
    const withRelay = new ApiClient(await env.buildApp());
    const vault = await makeSourceVault();
    const session = await newSession(withRelay, env.dataDir, vault.owner);
    const run = (from: number, to: number, isLast: boolean) =>
      withRelay.post(`/api/vaults/${vault.vaultId}/import`, { run: runOf(vault.vaultId, vault.history, from, to), isLast }, { token: session.token });
    const positionOf = async () => {
      const rows = await sql<{ history_seq: number | string }>`select history_seq from vaults where id = ${vault.vaultId}`.execute(env.db);
      return Number(rows.rows[0]?.history_seq);
    };
    expectStatus(await run(1, 4, false), 200);
    expect(await positionOf()).toBe(4);
    expectStatus(await run(5, vault.history.length, true), 200);
    expect(await positionOf()).toBe(vault.history.length);
  }, 120_000);
});
