import { useEffect, useRef, useState } from 'react';
import { NEW_MEMO_HIGHLIGHT_MS } from '../../domain/memoRules';
import type { MemoRecord } from '../../storage/vaultRecords';

/**
 * Ids of messages that arrived while the chat was open, each for NEW_MEMO_HIGHLIGHT_MS (spec 000
 * section 2: the highlight of a new memo lasts 2 s). What the first read shows, and older pages
 * loaded on request (all before the oldest one shown), are not new.
 */
export function useNewMemoHighlight(memos: MemoRecord[] | undefined): ReadonlySet<string> {
  const seen = useRef<Set<string> | null>(null);
  const oldest = useRef(Infinity);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  useEffect(() => {
    if (!memos) return;
    const isFirst = seen.current === null;
    seen.current ??= new Set();
    const fresh = isFirst ? [] : memos.filter((m) => !seen.current!.has(m.memoId) && m.order > oldest.current).map((m) => m.memoId);
    for (const m of memos) {
      seen.current.add(m.memoId);
      oldest.current = Math.min(oldest.current, m.order);
    }
    if (!fresh.length) return;
    setHighlighted((current) => new Set([...current, ...fresh]));
    // Not cleared when the list changes again within the 2 s (a pending message being accepted).
    timers.current.push(
      setTimeout(() => setHighlighted((current) => new Set([...current].filter((id) => !fresh.includes(id)))), NEW_MEMO_HIGHLIGHT_MS),
    );
  }, [memos]);

  return highlighted;
}
