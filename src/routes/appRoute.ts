/**
 * The signed-in app shell: every route under it is protected (spec 000 section 2, routing rules).
 * Unauthenticated users go to /login remembering the origin; with the maintenance flag on, to
 * /maintenance. A `wallet` parameter (an airdrop link) goes to /login, which signs in with it.
 */
import { createRoute, redirect } from '@tanstack/react-router';
import { AppShell } from '../app/AppShell';
import { isHiddenForPasswordless } from '../domain/navigationRules';
import { splitWalletParam } from '../domain/redirectPath';
import { rootRoute } from './rootRoute';

export const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    const [flags, session] = await Promise.all([context.config.whenLoaded(), context.auth.whenSettled()]);
    if (flags.config?.maintenance) throw redirect({ to: '/maintenance', replace: true });
    // An airdrop link to a page in the app: sign in with its wallet first, then come back here.
    const airdrop = splitWalletParam(location.href);
    if (airdrop.wallet) throw redirect({ to: '/login', search: { redirect: airdrop.path, wallet: airdrop.wallet }, replace: true });
    if (session.status !== 'signedIn') {
      throw redirect({ to: '/login', search: { redirect: location.href }, replace: true });
    }
    if (session.user?.passwordless && isHiddenForPasswordless(location.pathname)) {
      throw redirect({ to: '/vaults/$status', params: { status: 'active' }, replace: true });
    }
  },
  component: AppShell,
});

/** / opens the vault list. */
export const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/vaults/$status', params: { status: 'active' }, replace: true });
  },
});
