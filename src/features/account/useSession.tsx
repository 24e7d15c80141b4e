import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';
import type { AccountUser } from '../../protocol/auth';
import { authService } from './authService';
import type { SessionStatus } from './createAuthService';

export interface SessionContextValue {
  status: SessionStatus;
  user: AccountUser | null;
  /** Signed in from this device's cache because the server could not be reached. */
  isOffline: boolean;
  /** Why the app ended a session, for the login page (e.g. 'User not initialized'). */
  notice: string | null;
  /** Reloads the user from GET /api/account. */
  refreshUser: () => Promise<AccountUser>;
  /** Replaces the user after a call that answered `{ user }`. */
  setUser: (user: AccountUser) => void;
  /** Ends the session and wipes this account's data on the device. */
  logout: () => Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

/** Publishes the account service's session to the tree. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const snapshot = useSyncExternalStore(authService.subscribe, authService.getSnapshot);
  const value = useMemo<SessionContextValue>(
    () => ({
      status: snapshot.status,
      user: snapshot.user,
      isOffline: snapshot.isOffline,
      notice: snapshot.notice,
      refreshUser: () => authService.refreshUser(),
      setUser: (user) => authService.setUser(user),
      logout: () => authService.logout(),
    }),
    [snapshot],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession() outside <SessionProvider>');
  return value;
}

/** The signed-in user; only for components under the protected app shell. */
export function useUser(): AccountUser {
  const { user } = useSession();
  if (!user) throw new Error('useUser() without a signed-in user');
  return user;
}
