/**
 * SYNC_SPEC R64 with R9 on the device: an operation the server fails to apply unexpectedly comes
 * back rejected with INTERNAL; the device marks it rejected and shows it on its item like any
 * rejection, and the changes queued after it are accepted: the outbox does not stall. Real server
 * (buildApp on SQLite) with a fault planted under it, real crypto API, fake-indexeddb.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createCryptoApi } from '../../workers/crypto/createCryptoApi';
import { createTransferApi } from '../../workers/transfer/createTransferApi';
import { createApiClient, type FetchLike } from '../platform/apiClient';
import { CairnDb } from '../storage/db';
import { setCurrentSync } from './currentSync';
import { SyncClient } from './SyncClient';
import { signedInServer } from './testing/realServer';
import * as actions from './vaultActions';

const real = signedInServer(() => setCurrentSync(null));

describe('SYNC_SPEC R64: an unexpected failure rejects one operation', () => {
  it('[R64] the failed operation is marked rejected with INTERNAL on its item, and the ones queued after it are accepted', async () => {
    const crypto = createCryptoApi();
    await crypto.loadPendingWallet(real.user.phrase.split(' '));
    await crypto.activatePendingWallet();
    const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
    let online = true;
    const server = real.fetch();
    const fetchLike = (async (input: string | URL | Request, init?: RequestInit) => {
      if (!online) throw new TypeError('Failed to fetch');
      return server(input, init);
    }) as typeof fetch;
    let nextId = 0;
    const client = new SyncClient(
      {
        db,
        crypto,
        api: createApiClient({ fetch: fetchLike as FetchLike }),
        transfer: createTransferApi({ fetch: fetchLike }),
        log: () => {},
        newId: () => `I-${(nextId += 1).toString(36).padStart(6, '0')}`,
      },
      { pollIntervalMs: 0 },
    );
    client.start(real.userId, real.me);
    setCurrentSync(client);
    const vaultId = await actions.createVault({ title: 'Faults', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
    await client.syncNow();

    online = false;
    const failing = await actions.createFolder(vaultId, null, 'Failing');
    const after = await actions.createFolder(vaultId, null, 'After');
    // A database fault under the server for this one operation, not a typed refusal.
    await sql.raw(`create trigger fail_one_op before insert on ops when new.object_id = '${failing}' begin select raise(abort, 'forced failure'); end`).execute(real.env.db);
    online = true;
    await client.syncNow();

    const outbox = await db.outbox.where('[accountId+vaultId]').equals([real.userId, vaultId]).toArray();
    expect(outbox.map((r) => ({ objectId: r.op.objectId, status: r.status, code: r.error?.code }))).toEqual([{ objectId: failing, status: 'rejected', code: 'INTERNAL' }]);
    const nodes = await db.nodes.where('[accountId+vaultId]').equals([real.userId, vaultId]).toArray();
    expect(nodes.find((n) => n.id === failing)?.rejection).toMatchObject({ code: 'INTERNAL' });
    expect(nodes.find((n) => n.id === after)).toMatchObject({ name: 'After', pendingOpIds: [], rejection: null });
    client.stop();
  }, 60_000);
});
