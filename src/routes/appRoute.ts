/**
 * The signed-in app shell: every route under it is protected (spec 000 section 2, routing rules).
 * Unauthenticated users go to /login remembering the origin; with the maintenance flag on, to
 * /maintenance.
 */
import { createRoute, redirect } from '@tanstack/react-router';
import { AppShell } from '../app/AppShell';
import { rootRoute } from './rootRoute';

export const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    const [flags, session] = await Promise.all([context.config.whenLoaded(), context.auth.whenSettled()]);
    if (flags.config?.maintenance) throw redirect({ to: '/maintenance', replace: true });
    if (session.status !== 'signedIn') {
      throw redirect({ to: '/login', search: { redirect: location.href }, replace: true });
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
