import { createRootRouteWithContext, Navigate, Outlet, redirect } from '@tanstack/react-router';
import type { ServerConfigStore } from '../app/serverConfigStore';
import type { CairnAuthService } from '../features/account/authService';

export interface RouterContext {
  auth: CairnAuthService;
  config: ServerConfigStore;
  /** False when IndexedDB is blocked (privacy settings): every route shows /418. */
  isIndexedDbAvailable: boolean;
}

function NotFoundRedirect() {
  return <Navigate to="/404" replace />;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  beforeLoad: ({ context, location }) => {
    if (!context.isIndexedDbAvailable && location.pathname !== '/418') throw redirect({ to: '/418', replace: true });
  },
  component: Outlet,
  notFoundComponent: NotFoundRedirect,
});
