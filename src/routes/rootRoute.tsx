import { createRootRouteWithContext, Navigate, Outlet, redirect } from '@tanstack/react-router';
import type { ServerConfigStore } from '../app/serverConfigStore';
import type { CairnAuthService } from '../features/account/authService';

export interface RouterContext {
  auth: CairnAuthService;
  config: ServerConfigStore;
  /** False when IndexedDB is blocked (privacy settings): every route shows /418. */
  isIndexedDbAvailable: boolean;
}

/** Unknown paths go to /404. */
function NotFoundRedirect() {
  return <Navigate to="/404" replace />;
}

/** Spec 001 section 2: extra path forms of /login (/login/anything) go to /login, keeping the query. */
const LOGIN_EXTRA_PATH = /^\/login\/.+/;

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  beforeLoad: ({ context, location }) => {
    if (!context.isIndexedDbAvailable && location.pathname !== '/418') throw redirect({ to: '/418', replace: true });
    if (LOGIN_EXTRA_PATH.test(location.pathname)) throw redirect({ href: `/login${location.searchStr}`, replace: true });
  },
  component: Outlet,
  notFoundComponent: NotFoundRedirect,
});
