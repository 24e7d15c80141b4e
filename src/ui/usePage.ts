import { useEffect, useState } from 'react';

/**
 * The current page of a list (spec 000 section 9: vault page size 40). Goes back to a valid page
 * when the list shrinks.
 */
export function usePage<T>(items: readonly T[], pageSize: number, resetKey?: unknown) {
  const [page, setPage] = useState(1);
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  useEffect(() => setPage(1), [resetKey]);
  useEffect(() => {
    if (page > pageCount) setPage(pageCount);
  }, [page, pageCount]);
  const current = Math.min(page, pageCount);
  return { page: current, setPage, pageCount, pageItems: items.slice((current - 1) * pageSize, current * pageSize) };
}
