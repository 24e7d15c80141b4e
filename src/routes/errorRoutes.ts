/** Error and status pages (spec 001 section 2): /maintenance, /404, /418. */
import { createRoute } from '@tanstack/react-router';
import { BlockedPage } from '../features/errors/BlockedPage';
import { MaintenancePage } from '../features/errors/MaintenancePage';
import { NotFoundPage } from '../features/errors/NotFoundPage';
import { rootRoute } from './rootRoute';

export const maintenanceRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'maintenance',
  component: MaintenancePage,
});

export const notFoundRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '404',
  component: NotFoundPage,
});

export const blockedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '418',
  component: BlockedPage,
});
