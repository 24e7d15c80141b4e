import { liveQuery } from 'dexie';
import { useEffect, useState, type DependencyList } from 'react';

/**
 * Like dexie-react-hooks' useLiveQuery, but the component re-renders only when `keyOf(result)`
 * changes. A page that follows which uploads are on their way then stays still while each chunk's
 * progress is written (the row's own mark follows the progress). `undefined` until the first read.
 */
export function useLiveSelection<T>(query: () => Promise<T>, deps: DependencyList, keyOf: (value: T) => string): T | undefined {
  const [state, setState] = useState<{ value: T } | { error: unknown } | undefined>(undefined);
  useEffect(() => {
    let lastKey: string | null = null;
    const subscription = liveQuery(query).subscribe({
      next: (value) => {
        const key = keyOf(value);
        if (key === lastKey) return;
        lastKey = key;
        setState({ value });
      },
      error: (error: unknown) => setState({ error }),
    });
    return () => subscription.unsubscribe();
    // The caller's deps stand for `query` and `keyOf`, as with useLiveQuery.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  if (state && 'error' in state) throw state.error;
  return state?.value;
}
