/** What the top bar's sync status says (docs/SYNC_SPEC.md R12), from the status and the outbox. */

/** The same union as src/sync/syncStatus.ts SyncStatus (domain code imports no sync module). */
export type SyncStatusKind = 'offline' | 'syncing' | 'idle' | 'error';

export interface SyncLook {
  /** The badge's words. */
  label: string;
  color: string;
  /** The tooltip, and the rest of the accessible name. */
  detail: string;
}

function changesWaiting(waiting: number): string {
  return waiting === 1 ? '1 change waiting' : `${waiting.toLocaleString('en-US')} changes waiting`;
}

export function syncLookOf(status: SyncStatusKind, waiting: number): SyncLook {
  const queued = waiting === 1 ? '1 change is waiting to be sent.' : `${waiting.toLocaleString('en-US')} changes are waiting to be sent.`;
  switch (status) {
    case 'offline':
      // The README's promise: offline, the top bar says how many changes wait, not only 'Offline'.
      return {
        label: waiting ? `Offline · ${changesWaiting(waiting)}` : 'Offline',
        color: 'gray',
        detail: `You're offline. ${waiting ? queued : 'Changes you make are kept on this device.'} They are sent when you're back online.`,
      };
    case 'syncing':
      return { label: 'Syncing', color: 'blue', detail: waiting ? `Syncing. ${queued}` : 'Syncing your vaults.' };
    case 'error':
      return { label: 'Sync problem', color: 'red', detail: `Cairn cannot sync right now and keeps trying. ${waiting ? queued : ''}`.trim() };
    default:
      return waiting
        ? { label: `${waiting.toLocaleString('en-US')} waiting`, color: 'yellow', detail: queued }
        : { label: 'Synced', color: 'teal', detail: 'Everything is up to date.' };
  }
}
