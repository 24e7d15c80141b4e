/**
 * What search keeps on this device, per account: the saved index (Dexie `searchIndex`, schema
 * v10) and the recent search terms (localStorage). Both are wiped at log out (wipeAccountData).
 */
import type { SearchSnapshot } from '../../workers/search/SearchApi';

/**
 * The saved index of one account. It holds decrypted names and note words, like the projection
 * tables hold decrypted names: on this device only, removed at log out.
 */
export interface SearchIndexRecord {
  accountId: string;
  snapshot: SearchSnapshot;
  /**
   * Per vault, the state it was indexed at (see `vaultIndexKey`): a vault whose key is unchanged
   * is not read again (docs/SYNC_SPEC.md R32).
   */
  vaultKeys: Record<string, string>;
  savedAt: number;
}

/** Recent terms kept (spec 000 section 2: "recent terms are kept"). */
export const RECENT_TERMS_MAX = 5;

export function recentTermsKey(accountId: string): string {
  return `cairn.search.recent.${accountId}`;
}

function storage(): Storage | null {
  return typeof localStorage === 'undefined' ? null : localStorage;
}

export function readRecentTerms(accountId: string): string[] {
  try {
    const raw = storage()?.getItem(recentTermsKey(accountId));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string').slice(0, RECENT_TERMS_MAX) : [];
  } catch {
    return [];
  }
}

/** Puts `term` first among the recent terms (once, case-insensitively). */
export function rememberTerm(accountId: string, term: string): string[] {
  const trimmed = term.trim();
  if (!trimmed) return readRecentTerms(accountId);
  const terms = [trimmed, ...readRecentTerms(accountId).filter((t) => t.toLowerCase() !== trimmed.toLowerCase())].slice(0, RECENT_TERMS_MAX);
  try {
    storage()?.setItem(recentTermsKey(accountId), JSON.stringify(terms));
  } catch {
    /* storage full or blocked: recent terms are a convenience */
  }
  return terms;
}

export function clearRecentTerms(accountId: string): void {
  try {
    storage()?.removeItem(recentTermsKey(accountId));
  } catch {
    /* nothing to clear */
  }
}

const wipeListeners = new Set<(accountId: string) => void>();

/**
 * Called by wipeAccountData before it deletes anything: a running indexer of that account stops
 * first, so no save of it can land after the wipe (log out may come before the shell unmounts).
 */
export function onAccountWipe(listener: (accountId: string) => void): () => void {
  wipeListeners.add(listener);
  return () => wipeListeners.delete(listener);
}

export function announceAccountWipe(accountId: string): void {
  for (const listener of [...wipeListeners]) listener(accountId);
}
