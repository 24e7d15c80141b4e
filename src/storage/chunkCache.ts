/**
 * The Cache Storage cache that keeps an account's file chunks (still encrypted) for offline use:
 * filled by the transfer workers, read by src/sync/offlineFiles.ts, deleted on log out.
 */
export function chunkCacheName(accountId: string): string {
  return `cairn-chunks-${accountId}`;
}
