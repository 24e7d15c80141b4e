/** The app's one SyncClient while someone is signed in (set by src/sync/index.ts startSync). */
import type { SyncClient } from './SyncClient';
import type { SyncContext } from './SyncContext';

let current: SyncClient | null = null;

export function setCurrentSync(client: SyncClient | null): void {
  current = client;
}

export function getCurrentSync(): SyncClient | null {
  return current;
}

/** The running client, or Error('Cairn sync is not started.') (spec: '{product}-js not initialized.'). */
export function requireSync(): { client: SyncClient; ctx: SyncContext } {
  if (!current?.isStarted) throw new Error('Cairn-js not initialized.');
  return { client: current, ctx: current.context };
}
