/**
 * A device's local stores in memory, for running the account service outside a browser (the
 * server-backed unit tests, the e2e account fixture): web storage for the session, and the
 * wallets and accounts IndexedDB would keep.
 */
import type { StoredWallet } from '../../../../workers/crypto/CryptoApi';
import type { AccountUser } from '../../../protocol/auth';
import type { LocalAccountStore } from '../createAuthService';
import type { StorageLike } from '../sessionStore';

export class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

export function memoryAccounts(): LocalAccountStore {
  const wallets = new Map<string, StoredWallet>();
  const users = new Map<string, AccountUser>();
  return {
    saveWallet: async (id, stored) => void wallets.set(id, stored),
    loadWallet: async (id) => wallets.get(id),
    deleteWallet: async (id) => void wallets.delete(id),
    wipeAccountData: async (id) => void users.delete(id),
    saveAccount: async (user) => void users.set(user.id, user),
    getAccount: async (id) => users.get(id),
  };
}
