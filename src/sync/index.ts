/**
 * Starting and stopping sync with the session. The app shell calls `useStartSync(user)` once
 * under the signed-in layout (or `startSync(user)` / `stopSync()` from non-React code).
 *
 * The transfer pool (src/platform/transferClient.ts) is started on the first sign-in and kept
 * for later sessions (its workers hold no account data); `setTransferPoolFactory` replaces it.
 */
import { useEffect } from 'react';
import { getApiClient } from '../platform/apiClient';
import { getCrypto } from '../platform/cryptoClient';
import { createTransferPool } from '../platform/transferClient';
import { getDb } from '../storage/db';
import { setStoreAccount } from '../storage/vaultStore';
import { getCurrentSync, setCurrentSync } from './currentSync';
import { isMembershipEndingEvent } from './dropEndedVaults';
import { NotificationSync, setCurrentNotificationSync } from './notificationSync';
import { RealtimeConnection, socketUrl } from './realtime';
import { StorageTxSync, setCurrentStorageTxSync } from './storageTxSync';
import { TokenSync, setCurrentTokenSync } from './tokenSync';
import { publishWebhookLog } from './webhookLogStream';
import { SyncClient, type SyncClientOptions } from './SyncClient';
import type { SyncPorts, SyncUser, TransferPort } from './SyncContext';

export { onServerAnswering, useHasSynced, useRealtimeOpen, useSyncStatus, type SyncStatus } from './syncStatus';
import { getDefaultStore } from './syncStatus';
export { SyncClient } from './SyncClient';
export type { SyncPorts, SyncUser, TransferPort } from './SyncContext';

let sharedPool: TransferPort | null = null;
let realtime: RealtimeConnection | null = null;
let transferFactory: () => TransferPort = () => {
  sharedPool ??= createTransferPool();
  return sharedPool;
};

/** Replaces the transfer pool the next startSync uses. */
export function setTransferPoolFactory(factory: () => TransferPort): void {
  transferFactory = factory;
}

/** Starts syncing for `user` (stopping any previous session's sync). `ports` overrides the browser defaults. */
export function startSync(user: SyncUser, ports?: Partial<SyncPorts>, options?: SyncClientOptions): SyncClient {
  stopSync();
  const client = new SyncClient({
    db: ports?.db ?? getDb(),
    api: ports?.api ?? getApiClient(),
    // Comlink's Remote<VaultCryptoApi> has the same promise-returning methods.
    crypto: ports?.crypto ?? getCrypto(),
    transfer: ports?.transfer ?? transferFactory(),
    ...(ports?.now ? { now: ports.now } : {}),
    ...(ports?.newId ? { newId: ports.newId } : {}),
    ...(ports?.log ? { log: ports.log } : {}),
  }, options);
  setStoreAccount(user.id);
  client.start(user.id, user);
  setCurrentSync(client);
  // Notifications (SYNC_SPEC R31): loaded now and on every socket (re)open, grown by its messages.
  const notifications = new NotificationSync(ports?.db ?? getDb(), ports?.api ?? getApiClient(), user.id, ports?.log);
  setCurrentNotificationSync(notifications);
  void notifications.refresh();
  // Storage transactions (SYNC_SPEC R38-R39): same life cycle as notifications.
  const storageTxs = new StorageTxSync(ports?.db ?? getDb(), ports?.api ?? getApiClient(), user.id, ports?.log ? { log: ports.log } : {});
  setCurrentStorageTxSync(storageTxs);
  void storageTxs.refresh();
  // The $U balance (SYNC_SPEC R109): same life cycle, the highest headSeq kept.
  const tokens = new TokenSync(ports?.api ?? getApiClient(), ports?.log);
  setCurrentTokenSync(tokens);
  void tokens.refresh();
  // Tests pass their own ports and drive pokes themselves; the app gets the realtime socket.
  if (!ports && typeof WebSocket !== 'undefined' && typeof location !== 'undefined') {
    realtime = new RealtimeConnection({
      url: socketUrl(location),
      onPoke: (vaultId) => client.poke(vaultId),
      onNotification: (notification) => {
        void notifications.receive(notification);
        // The server pokes no revoked member: this notification is the news (R56).
        if (isMembershipEndingEvent(notification.event)) client.requestRun();
      },
      onStorageTransaction: (transaction) => void storageTxs.receive(transaction),
      onTokenBalance: (balance, headSeq) => tokens.receive(balance, headSeq),
      onWebhookLog: publishWebhookLog,
      onOpen: () => {
        client.setRealtimeOpen(true);
        void notifications.refresh();
        void storageTxs.refresh();
        void tokens.refresh();
      },
      onState: (state) => {
        getDefaultStore().set({ isRealtimeOpen: state === 'open' });
        if (state !== 'open') client.setRealtimeOpen(false);
      },
      log: (message, detail) => console.warn(`[realtime] ${message}`, detail ?? ''),
    });
    realtime.start();
  }
  return client;
}

/** Stops syncing (sign-out). Queued work stays in Dexie unless the account's data is wiped. */
export function stopSync(): void {
  realtime?.stop();
  realtime = null;
  setCurrentNotificationSync(null);
  setCurrentStorageTxSync(null);
  setCurrentTokenSync(null);
  getDefaultStore().set({ isRealtimeOpen: false });
  getCurrentSync()?.stop();
  setCurrentSync(null);
  setStoreAccount(null);
}

/** Runs sync while `user` is signed in: call it in the signed-in shell with `useSession().user`. */
export function useStartSync(user: SyncUser | null): void {
  const id = user?.id ?? null;
  const key = user?.publicSigningKey ?? null;
  const address = user?.address ?? null;
  useEffect(() => {
    if (!id || !key || address === null) return;
    startSync({ id, publicSigningKey: key, address });
    return () => stopSync();
  }, [id, key, address]);
}

/** The WebSocket hook: a vault moved on the server. Harmless when sync is stopped. */
export function pokeVault(vaultId: string): void {
  getCurrentSync()?.poke(vaultId);
}
