import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { ApiError } from '../../protocol/errors';
import { PlansResponse } from '../../protocol/plans';
import { getApiClient } from '../../platform/apiClient';

export type PlansState =
  | { status: 'loading' }
  | { status: 'error'; message: string; retry: () => void }
  | { status: 'ready'; plans: PlansResponse };

const PlansContext = createContext<PlansState>({ status: 'loading' });

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

  const load = useCallback(async () => {
    setState({ status: 'loading' });
    try {
      setState({ status: 'ready', plans: await getApiClient().get('/plans', PlansResponse) });
    } catch (error) {
      setState({ status: 'error', message: errorText(error), retry: () => void load() });
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  return <PlansContext.Provider value={state}>{children}</PlansContext.Provider>;
}

export function usePlans(): PlansState {
  return useContext(PlansContext);
}
