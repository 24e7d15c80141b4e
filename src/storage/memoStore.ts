/**
 * Chat messages as projected by src/sync (schema v7, MemoRecord). Screens read them through
 * `useMemos` (DESIGN.md section 4: the UI reads Dexie only).
 */
import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { getDb, type CairnDb } from './db';
import type { MemoRecord } from './vaultRecords';
import { useStoreAccount } from './vaultStore';

/**
 * The newest `limit` memos of a vault, oldest first (the chat shows the newest at the bottom),
 * and whether older ones exist.
 */
export async function getLatestMemos(db: CairnDb, accountId: string, vaultId: string, limit: number): Promise<{ memos: MemoRecord[]; hasOlder: boolean }> {
  const newest = await db.memos
    .where('[accountId+vaultId+order]')
    .between([accountId, vaultId, Dexie.minKey], [accountId, vaultId, Dexie.maxKey])
    .reverse()
    .limit(limit + 1)
    .toArray();
  return { memos: newest.slice(0, limit).reverse(), hasOlder: newest.length > limit };
}

export async function getMemo(db: CairnDb, accountId: string, memoId: string): Promise<MemoRecord | undefined> {
  return db.memos.get([accountId, memoId]);
}

/** The newest `limit` memos of the vault, live (undefined while the first read is in flight). */
export function useMemos(vaultId: string, limit: number): { memos: MemoRecord[]; hasOlder: boolean } | undefined {
  const accountId = useStoreAccount();
  return useLiveQuery(() => (accountId ? getLatestMemos(getDb(), accountId, vaultId, limit) : { memos: [], hasOlder: false }), [accountId, vaultId, limit]);
}
