/** Cache of the signed-in account (AccountUser from the server) for offline start. */
import type { AccountUser } from '../protocol/auth';
import { getDb, type AccountRecord, type CairnDb } from './db';

/** Caches `user` (validated by the API client) with the time it was cached. */
export async function saveAccount(user: AccountUser, db: CairnDb = getDb()): Promise<void> {
  await db.accounts.put({ ...user, cachedAt: Date.now() });
}

/** The cached account, or undefined. */
export async function getAccount(accountId: string, db: CairnDb = getDb()): Promise<AccountRecord | undefined> {
  return db.accounts.get(accountId);
}
