/**
 * SYNC_SPEC R70: a link (an e-mail's, a notification's, a bookmark's) may name a vault, a file or
 * a note this device has not fetched yet. An empty local read then means "not known yet", not
 * "does not exist": only a sync cycle that reached the server and left the thing absent from the
 * device says it does not exist for this user.
 */
import { useEffect, useState } from 'react';
import { getCurrentSync } from './currentSync';
import { useHasSynced, useSyncStatus } from './syncStatus';

/**
 * True once the server has said that what `key` names does not exist for this user; false while
 * that is not known (the first sync has not answered, the device is offline, a check is running).
 *
 * `isMissing`: the device does not hold it now (the screen's live read). While it is missing and
 * the account's first sync has answered and `isPresent` (a direct read of the device) does not find
 * it either, one more cycle runs (the device may have synced before the thing existed, as for a
 * vault someone just shared), then `isPresent` reads again: a live query may not have caught up
 * with the cycle's writes yet.
 */
export function useAbsentOnServer(key: string, isMissing: boolean, isPresent: () => Promise<boolean>): boolean {
  const hasSynced = useHasSynced();
  const isOffline = useSyncStatus() === 'offline';
  const [absentKey, setAbsentKey] = useState<string | null>(null);

  useEffect(() => {
    if (!isMissing || !hasSynced || isOffline) return;
    let isCurrent = true;
    void (async () => {
      // Most of the time the live read is only a moment behind: no cycle for what the device holds.
      if (await isPresent()) return;
      const client = getCurrentSync();
      if (!isCurrent || !client || !(await client.syncAndConfirm()) || !isCurrent) return;
      const present = await isPresent();
      if (isCurrent && !present) setAbsentKey(key);
    })();
    return () => {
      isCurrent = false;
    };
    // isPresent reads what `key` names; a new function for the same key changes nothing.
  }, [key, isMissing, hasSynced, isOffline]);

  return isMissing && absentKey === key;
}

/** Whether the account's first sync is still to answer while offline: a link cannot be opened yet. */
export function useIsWaitingForConnection(): boolean {
  const hasSynced = useHasSynced();
  const status = useSyncStatus();
  return !hasSynced && status === 'offline';
}
