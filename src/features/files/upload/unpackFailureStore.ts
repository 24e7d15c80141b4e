import { useSyncExternalStore } from 'react';

/** A file that never became an upload (an archive entry that could not be unpacked). */
export interface NotUploadedFile {
  name: string;
  message: string;
}

/**
 * Zip entries that could not be unpacked, by the upload batch of the rest of their archive, so the
 * progress box counts them and its retry modal names them ('Zip upload errors are reported per
 * file name', spec 000 section 8). In memory only: they have no file to retry or resume.
 */
let failures: ReadonlyMap<string, readonly NotUploadedFile[]> = new Map();
const listeners = new Set<() => void>();

function publish(next: ReadonlyMap<string, readonly NotUploadedFile[]>) {
  failures = next;
  for (const listener of listeners) listener();
}

export function addUnpackFailures(batchId: string, list: readonly NotUploadedFile[]): void {
  if (list.length === 0) return;
  publish(new Map(failures).set(batchId, [...(failures.get(batchId) ?? []), ...list]));
}

export function clearUnpackFailures(batchIds: Iterable<string>): void {
  const next = new Map(failures);
  let changed = false;
  for (const id of batchIds) changed = next.delete(id) || changed;
  if (changed) publish(next);
}

export function useUnpackFailures(): ReadonlyMap<string, readonly NotUploadedFile[]> {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => failures,
  );
}
