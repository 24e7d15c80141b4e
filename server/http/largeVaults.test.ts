/**
 * Operations over data that grows without bound: a vault of tens of thousands of blobs is deleted
 * in one operation (no statement binds more ids than a database accepts), and an operation whose
 * apply fails unexpectedly is refused alone (SYNC_SPEC R1, R9), so the rest of the push and the
 * device's outbox go on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { PushResponse } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase, describePostgres } from '../testing/databases';
import { INTERNAL_REJECTION } from '../services/OperationService';
import { expectAccepted, makeFile, newId, sealed, VaultActor } from '../testing/vaults';
import { isTransientDbError } from '../db/isTransientDbError';

/** More ids than either database binds in one statement (SQLite 32,766, PostgreSQL 65,535). */
const BLOB_COUNT = 70_000;

function blobFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'blobs');
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
}

describeEachDatabase('large vaults', (env) => {
  let api: ApiClient;
  let owner: VaultActor;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
  });

  it(`[R1] deleting a cloud vault of ${BLOB_COUNT} blobs frees them all, and the operation after it in the push is applied`, { timeout: 120_000 }, async () => {
    const vaultId = await owner.createVault();
    // One real upload (its chunk file must go), then the rest as rows: reservations never sent.
    const file = makeFile(50_000);
    const version = await owner.upload(vaultId, file);
    expectAccepted(await owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version }));
    expect(blobFiles(env.dataDir)).toHaveLength(1);
    const now = Date.now();
    const rows = Array.from({ length: BLOB_COUNT }, () => ({
      id: newId(),
      vault_id: vaultId,
      uploader_user_id: owner.userId,
      charged_user_id: owner.userId,
      is_cloud: 1,
      stored_size: 1_000,
      chunk_count: 1,
      status: 'reserved',
      node_id: null,
      version_id: null,
      created_at: now,
      expires_at: now + 3_600_000,
    }));
    for (let i = 0; i < rows.length; i += 2_000) await env.db.insertInto('blobs').values(rows.slice(i, i + 2_000)).execute();
    expectAccepted(await owner.apply(vaultId, vaultId, { type: 'vault.archive' }));

    const other = await owner.createVault();
    const [deleted, after] = await owner.push(
      await owner.sign(vaultId, vaultId, { type: 'vault.delete' }),
      await owner.sign(other, newId(), { type: 'folder.create', parentId: null, name: sealed() }),
    );
    expectAccepted(deleted);
    expectAccepted(after);
    const left = await env.db.selectFrom('blobs').select((eb) => eb.fn.countAll<number>().as('n')).where('vault_id', '=', vaultId).executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    const vault = await env.db.selectFrom('vaults').select(['status', 'size']).where('id', '=', vaultId).executeTakeFirstOrThrow();
    expect({ status: vault.status, size: Number(vault.size) }).toEqual({ status: 'DELETED', size: 0 });
    expect(blobFiles(env.dataDir)).toEqual([]);
  });

  it(`[R1] deleting a folder of ${BLOB_COUNT} folders deletes them all`, { timeout: 120_000 }, async () => {
    const vaultId = await owner.createVault();
    const folderId = newId();
    expectAccepted(await owner.apply(vaultId, folderId, { type: 'folder.create', parentId: null, name: sealed() }));
    const now = Date.now();
    const rows = Array.from({ length: BLOB_COUNT }, () => ({
      id: newId(),
      vault_id: vaultId,
      kind: 'folder',
      parent_id: folderId,
      status: 'ACTIVE',
      size: 0,
      version_count: 0,
      latest_version_id: null,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 2_000) await env.db.insertInto('nodes').values(rows.slice(i, i + 2_000)).execute();
    expectAccepted(await owner.apply(vaultId, folderId, { type: 'node.hide' }));
    expectAccepted(await owner.apply(vaultId, folderId, { type: 'node.delete' }));
    const left = await env.db
      .selectFrom('nodes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('vault_id', '=', vaultId)
      .where('status', '!=', 'DELETED')
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });

  it('[R9] an operation that fails unexpectedly is refused alone with INTERNAL, changes nothing, and the next one is applied', async () => {
    const vaultId = await owner.createVault();
    const doomed = newId();
    // A fault below the service, as a full disk or a database limit would raise: the append of
    // this one operation to the log fails with a database error that is not a typed rejection.
    if (env.kind === 'sqlite') {
      await sql
        .raw(`create trigger fail_one_op before insert on ops when new.object_id = '${doomed}' begin select raise(abort, 'forced failure'); end`)
        .execute(env.db);
    } else {
      await sql
        .raw(
          `create function fail_one_op() returns trigger language plpgsql as $$ begin if new.object_id = '${doomed}' then raise exception 'forced failure'; end if; return new; end $$;
           create trigger fail_one_op before insert on ops for each row execute function fail_one_op()`,
        )
        .execute(env.db);
    }
    const before = await env.db.selectFrom('vaults').select('head_seq').where('id', '=', vaultId).executeTakeFirstOrThrow();

    const next = newId();
    const response = await owner.pushRaw([
      await owner.sign(vaultId, doomed, { type: 'folder.create', parentId: null, name: sealed() }),
      await owner.sign(vaultId, next, { type: 'folder.create', parentId: null, name: sealed() }),
    ]);
    expect(response.status).toBe(200);
    const [failed, applied] = PushResponse.parse(response.body).results;
    expect(failed).toMatchObject({ status: 'rejected', error: INTERNAL_REJECTION });
    // Nothing of the cause reaches the device.
    expect(JSON.stringify(failed)).not.toContain('forced failure');
    expect(expectAccepted(applied)).toBe(Number(before.head_seq) + 1);
    const nodes = await env.db.selectFrom('nodes').select('id').where('vault_id', '=', vaultId).execute();
    expect(nodes.map((n) => n.id)).toEqual([next]);
  });
});

describePostgres('transient database failures', (env) => {
  it('[R10] a deadlock or serialization failure answers the push 5xx, so the device pushes it again, and the repeat is applied once', async () => {
    const api = new ApiClient(await env.buildApp());
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault();
    const unlucky = newId();
    await sql
      .raw(
        `create function lose_one_op() returns trigger language plpgsql as $$ begin if new.object_id = '${unlucky}' then raise exception 'could not serialize access' using errcode = '40001'; end if; return new; end $$;
         create trigger lose_one_op before insert on ops for each row execute function lose_one_op()`,
      )
      .execute(env.db);
    const ops = [
      await owner.sign(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }),
      await owner.sign(vaultId, unlucky, { type: 'folder.create', parentId: null, name: sealed() }),
    ];
    const failed = await owner.pushRaw(ops);
    expect(failed.status).toBeGreaterThanOrEqual(500);

    await sql.raw('drop trigger lose_one_op on ops').execute(env.db);
    const [first, second] = await owner.push(...ops);
    // The first was applied by the failed push: its repeat answers the same seq, not a second copy.
    expect(expectAccepted(first)).toBe(2);
    expect(expectAccepted(second)).toBe(3);
  });
});

describe('isTransientDbError', () => {
  it('tells busy, unreachable and conflicting databases from errors of the statement', () => {
    const coded = (code: string) => Object.assign(new Error(code), { code });
    for (const code of ['40001', '40P01', '08006', '57P01', 'SQLITE_BUSY', 'ECONNREFUSED']) expect(isTransientDbError(coded(code)), code).toBe(true);
    expect(isTransientDbError(new Error('Connection terminated unexpectedly'))).toBe(true);
    for (const code of ['54000', '23505', 'SQLITE_ERROR', 'SQLITE_CONSTRAINT_TRIGGER', 'P0001']) expect(isTransientDbError(coded(code)), code).toBe(false);
    expect(isTransientDbError(new Error('too many SQL variables'))).toBe(false);
  });
});
