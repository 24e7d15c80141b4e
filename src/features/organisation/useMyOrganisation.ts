/**
 * GET /api/organisations, shared by the account menu, the avatar menu, Plans and billing and the
 * organisation pages: asked once per session and again after a change (`reloadMyOrganisation`).
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useUser } from '../account/useSession';
import type { MyOrganisationResponse } from '../../protocol/organisations';
import { fetchMyOrganisation, organisationErrorText } from './organisationApi';

export type MyOrganisationState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; value: MyOrganisationResponse };

let state: MyOrganisationState = { status: 'loading' };
/** The account the answer is for: another account signed in on this tab asks again. */
let stateUserId: string | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

function set(next: MyOrganisationState) {
  state = next;
  for (const listener of listeners) listener();
}

/** Asks the server again; the current answer stays on screen meanwhile. */
export function reloadMyOrganisation(): Promise<void> {
  loading ??= fetchMyOrganisation()
    .then((value) => set({ status: 'ready', value }))
    .catch((error: unknown) => {
      if (state.status !== 'ready') set({ status: 'error', message: organisationErrorText(error) });
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}

/** Sets the answer a save returned, without another request. */
export function setMyOrganisation(value: MyOrganisationResponse) {
  set({ status: 'ready', value });
}

export function useMyOrganisation(): MyOrganisationState {
  const userId = useUser().id;
  if (stateUserId !== userId) {
    stateUserId = userId;
    state = { status: 'loading' };
  }
  const current = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
  useEffect(() => {
    if (state.status !== 'ready') void reloadMyOrganisation();
  }, [userId]);
  return current;
}

/** The organisation answer once loaded, else null. */
export function useMyOrganisationValue(): MyOrganisationResponse | null {
  const current = useMyOrganisation();
  return current.status === 'ready' ? current.value : null;
}
