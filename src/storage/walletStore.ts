/** The device-sealed wallet of each account kept signed in on this device. */
import { getDb, type CairnDb } from './db';

/** What the crypto worker's storeWallet returns and restoreWallet takes. */
export interface DeviceWallet {
  deviceKey: CryptoKey;
  sealed: string;
}

/** Saves (or replaces) the account's sealed wallet. */
export async function saveWallet(accountId: string, wallet: DeviceWallet, db: CairnDb = getDb()): Promise<void> {
  await db.wallets.put({ accountId, deviceKey: wallet.deviceKey, sealed: wallet.sealed, savedAt: Date.now() });
}

/** The account's sealed wallet, or undefined when it is not kept on this device. */
export async function loadWallet(accountId: string, db: CairnDb = getDb()): Promise<DeviceWallet | undefined> {
  const record = await db.wallets.get(accountId);
  return record && { deviceKey: record.deviceKey, sealed: record.sealed };
}

/** Forgets the account's sealed wallet (and with it the only copy of its device key). */
export async function deleteWallet(accountId: string, db: CairnDb = getDb()): Promise<void> {
  await db.wallets.delete(accountId);
}
