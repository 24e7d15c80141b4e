/**
 * Delivering the notifications of one push whatever their number (SYNC_SPEC R31): a push in a
 * vault of many members writes a row per member and operation, and the rows are read back in
 * bounded slices of ids (server/db/inBatches.ts), so every one still reaches its recipient.
 */
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { FileMailer } from '../mail/FileMailer';
import type { NotificationDelivery } from '../realtime/NotificationBus';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectAccepted, insertMembership, newId, sealed, VaultActor } from '../testing/vaults';
import { NotificationService } from './NotificationService';

/** More ids than either database binds in one statement (SQLite 32,766, PostgreSQL 65,535). */
const ROWS_IN_ONE_PUSH = 70_000;

describeEachDatabase('notification delivery of a large push', (env) => {
  let owner: VaultActor;
  let member: VaultActor;

  beforeAll(async () => {
    const api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
    member = await VaultActor.create(env, api);
  });

  it(`[R31] ${ROWS_IN_ONE_PUSH} notified rows are read back and each written one reaches its recipient`, async () => {
    const vaultId = await owner.createVault();
    await insertMembership(env.db, vaultId, member.userId, 'VIEWER');
    expectAccepted(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }));
    const written = await env.db.selectFrom('notifications').select('id').where('user_id', '=', member.userId).where('vault_id', '=', vaultId).executeTakeFirstOrThrow();

    const delivered: NotificationDelivery[] = [];
    const warnings: unknown[] = [];
    const service = new NotificationService(
      env.db,
      { publish: (delivery) => delivered.push(delivery) },
      new FileMailer(path.join(env.dataDir, 'mail')),
      'http://cairn.test',
      { warn: (object: unknown) => void warnings.push(object) },
    );
    // Rows of other members' notifications the push grew, stood in for by ids no row has.
    const others = Array.from({ length: ROWS_IN_ONE_PUSH }, () => ({ id: newId(), userId: newId(), isNew: false }));
    await service.deliver([...others, { id: written.id, userId: member.userId, isNew: false }]);
    expect(warnings).toEqual([]);
    expect(delivered.map((d) => [d.userId, d.notification.id])).toEqual([[member.userId, written.id]]);
  });
});
