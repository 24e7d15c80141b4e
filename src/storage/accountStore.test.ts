import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import sample from '../../tests/fixtures/account-user.json';
import { AccountUser } from '../protocol/auth';
import { getAccount, saveAccount } from './accountStore';
import { CairnDb } from './db';

const user = AccountUser.parse(sample);

let db: CairnDb;
beforeEach(() => {
  db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
});
afterEach(() => db.close());

describe('accountStore', () => {
  it('caches the account with the time it was cached', async () => {
    const before = Date.now();
    await saveAccount(user, db);
    const cached = await getAccount(user.id, db);
    expect(cached).toMatchObject(user);
    expect(cached!.cachedAt).toBeGreaterThanOrEqual(before);
    expect(await getAccount('someone-else', db)).toBeUndefined();
  });

  it('replaces the cached account with a newer one', async () => {
    await saveAccount(user, db);
    await saveAccount({ ...user, name: 'Ada' }, db);
    expect((await getAccount(user.id, db))?.name).toBe('Ada');
  });
});
