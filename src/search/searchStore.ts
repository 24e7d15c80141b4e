/**
 * What search keeps on this device, per account: the saved index (Dexie `searchIndex`, schema
 * v10) and the recent search terms (localStorage). Both are wiped at log out (wipeAccountData).
 */
import type { SearchSnapshot } from '../../workers/search/SearchApi';
import type { CairnDb } from '../storage/db';

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

/** Typed without the DOM's `Storage`: this module is also compiled for the crypto worker (no localStorage there). */
type KeyValueStore = { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void };

function storage(): KeyValueStore | null {
  return (globalThis as { localStorage?: KeyValueStore }).localStorage ?? null;
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

/**
 * A listener told that a vault's data left the device (wipeVaultData): answers true once the
 * vault's documents are out of the index and the index was saved without them.
 */
export type VaultWipeListener = (accountId: string, vaultId: string) => Promise<boolean>;

const vaultWipeListeners = new Set<VaultWipeListener>();

/** The running indexer of an account listens here (src/search/SearchIndexer.ts). */
export function onVaultWipe(listener: VaultWipeListener): () => void {
  vaultWipeListeners.add(listener);
  return () => vaultWipeListeners.delete(listener);
}

/**
 * Takes a vault out of the account's search index (docs/SYNC_SPEC.md R56). The running indexer
 * removes its documents and saves at once. Without one (search not started in this tab), the saved
 * index is deleted if it holds any document of the vault: it holds names in clear and only an
 * indexer can take some out, and the next start indexes the projections again, without the vault.
 */
export async function announceVaultWipe(db: CairnDb, accountId: string, vaultId: string): Promise<void> {
  let isHandled = false;
  for (const listener of [...vaultWipeListeners]) {
    if (await listener(accountId, vaultId).catch(() => false)) isHandled = true;
  }
  if (isHandled) return;
  const saved = await db.searchIndex.get(accountId);
  if (saved?.snapshot.docs.some((doc) => doc.vaultId === vaultId)) await db.searchIndex.delete(accountId);
}
