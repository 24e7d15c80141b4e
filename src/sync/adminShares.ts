/**
 * R129 whatever the connection: a vault an organisation person creates is shared with the
 * organisation's other admins once the server has it. The creation screen queues the vault here
 * before pushing; the share runs at once when the push is answered, or, for a vault made offline
 * (or a tab closed before the share ran), in a later sync cycle once the vault list has it. The
 * queue is kept per account in localStorage, so a reload does not lose it.
 */
import { NetworkError } from '../platform/apiClient';
import { lastVaultList } from './pull';
import type { SyncContext } from './SyncContext';
import type { VaultSummary } from '../protocol/vaults';

/** A queued vault the server never took (a refused creation) is forgotten after this long. */
export const ADMIN_SHARE_TTL_MS = 30 * 24 * 60 * 60 * 1000;

interface Queued {
  vaultId: string;
  queuedAt: number;
}

export type ShareWithAdmins = (vaultId: string, myUserId: string) => Promise<void>;

/** The organisation feature's share (src/main.tsx registers it), so the sync layer does not import screens. */
let registered: ShareWithAdmins | null = null;

export function registerAdminSharer(share: ShareWithAdmins): void {
  registered = share;
}

type Store = Pick<Storage, 'getItem' | 'setItem'>;

function browserStore(): Store | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

const keyOf = (accountId: string) => `cairn-admin-shares:${accountId}`;

function read(store: Store | null, accountId: string): Queued[] {
  try {
    const parsed: unknown = JSON.parse(store?.getItem(keyOf(accountId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((q): q is Queued => typeof q?.vaultId === 'string' && typeof q?.queuedAt === 'number') : [];
  } catch {
    return [];
  }
}

function write(store: Store | null, accountId: string, queue: Queued[]): void {
  try {
    store?.setItem(keyOf(accountId), JSON.stringify(queue));
  } catch {
    // Storage full or blocked: the share still runs now if the push is answered.
  }
}

export function queueAdminShare(accountId: string, vaultId: string, now = Date.now(), store = browserStore()): void {
  write(store, accountId, [...read(store, accountId).filter((q) => q.vaultId !== vaultId), { vaultId, queuedAt: now }]);
}

export function forgetAdminShare(accountId: string, vaultId: string, store = browserStore()): void {
  write(store, accountId, read(store, accountId).filter((q) => q.vaultId !== vaultId));
}

export function queuedAdminShares(accountId: string, store = browserStore()): string[] {
  return read(store, accountId).map((q) => q.vaultId);
}

/**
 * Shares `vaultId` now and takes it off the queue, unless the network failed (then it stays for
 * the next cycle). Other failures are told by `share` itself and not tried again.
 */
export async function runAdminShare(accountId: string, vaultId: string, share: ShareWithAdmins, store = browserStore()): Promise<void> {
  try {
    await share(vaultId, accountId);
  } catch (error) {
    if (error instanceof NetworkError) return;
    forgetAdminShare(accountId, vaultId, store);
    throw error;
  }
  forgetAdminShare(accountId, vaultId, store);
}

/**
 * In a sync cycle: each queued vault the server now lists with this account as its accepted OWNER
 * is shared; queued vaults older than ADMIN_SHARE_TTL_MS that it never listed are forgotten.
 * Answers how many were shared.
 */
export async function shareQueuedVaults(ctx: SyncContext, share = registered, now = Date.now(), store = browserStore()): Promise<number> {
  if (!share) return 0;
  return shareQueued({ accountId: ctx.user.id, listed: lastVaultList(ctx), share, now, store, log: ctx.log });
}

/** `shareQueuedVaults` over a given vault list. */
export async function shareQueued(input: {
  accountId: string;
  listed: readonly Pick<VaultSummary, 'vaultId' | 'membership'>[];
  share: ShareWithAdmins;
  now: number;
  store: Store | null;
  log: (message: string, error?: unknown) => void;
}): Promise<number> {
  const { accountId, share, now, store } = input;
  const queue = read(store, accountId);
  const listed = new Map(input.listed.map((vault) => [vault.vaultId, vault]));
  let shared = 0;
  for (const { vaultId, queuedAt } of queue) {
    const vault = listed.get(vaultId);
    if (vault?.membership.role === 'OWNER' && vault.membership.status === 'ACCEPTED') {
      try {
        await runAdminShare(accountId, vaultId, share, store);
        shared += 1;
      } catch (error) {
        input.log(`Vault ${vaultId} not shared with the organisation's admins`, error);
      }
    } else if (!vault && now - queuedAt > ADMIN_SHARE_TTL_MS) {
      forgetAdminShare(accountId, vaultId, store);
    }
  }
  return shared;
}
