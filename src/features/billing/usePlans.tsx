import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { ApiError } from '../../protocol/errors';
import { PlansResponse } from '../../protocol/plans';
import { getApiClient } from '../../platform/apiClient';

export type PlansState =
  | { status: 'loading' }
  | { status: 'error'; message: string; retry: () => void }
  | { status: 'ready'; plans: PlansResponse };

const PlansContext = createContext<PlansState>({ status: 'loading' });
const ReloadContext = createContext<() => Promise<void>>(async () => {});

function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return 'The plans could not be loaded. Check your connection and try again.';
}

/**
 * The server's plans (GET /api/plans, SYNC_SPEC R111), read once when Plans and billing opens and
 * shared by its tabs, so switching tab does not ask again. Online only: prices and the current
 * plan are the server's to say, never a cached guess.
 */
export function PlansProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<PlansState>({ status: 'loading' });

  const load = useCallback(async (quietly = false) => {
    if (!quietly) setState({ status: 'loading' });
    try {
      setState({ status: 'ready', plans: await getApiClient().get('/plans', PlansResponse) });
    } catch (error) {
      // A quiet reload that fails keeps the plans on screen rather than a blip's error.
      if (!quietly) setState({ status: 'error', message: errorText(error), retry: () => void load() });
    }
  }, []);

  useEffect(() => {
    void load();
    // The operator marks an invoice paid from another process (SYNC_SPEC R115), which no socket
    // message announces: the plans are asked again, without a spinner, when the user comes back.
    const onFocus = () => void load(true);
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [load]);

  const reload = useCallback(() => load(true), [load]);
  return (
    <ReloadContext.Provider value={reload}>
      <PlansContext.Provider value={state}>{children}</PlansContext.Provider>
    </ReloadContext.Provider>
  );
}

export function usePlans(): PlansState {
  return useContext(PlansContext);
}

/** Asks the server for the plans again (after ending a subscription), keeping the page on screen. */
export function useReloadPlans(): () => Promise<void> {
  return useContext(ReloadContext);
}
