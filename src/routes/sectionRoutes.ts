/** The navigation's other sections (spec 000 section 2): storage, rewards, notifications, search. */
import { createRoute } from '@tanstack/react-router';
import { searchString } from '../app/plainSearch';
import { NotificationsPage } from '../features/notifications/NotificationsPage';
import { ReferralPage } from '../features/referrals/ReferralPage';
import { RewardsPage } from '../features/rewards/RewardsPage';
import { SearchPage } from '../features/search/SearchPage';
import { SearchResultsPage } from '../features/search/SearchResultsPage';
import { StoragePage } from '../features/storage/StoragePage';
import { appRoute } from './appRoute';

export const storageRoute = createRoute({ getParentRoute: () => appRoute, path: 'storage', component: StoragePage });
export const rewardsRoute = createRoute({ getParentRoute: () => appRoute, path: 'rewards', component: RewardsPage });
/** The 'Referral Reward' page (spec 001 section 2), reached from Rewards and Storage. */
export const referralRoute = createRoute({ getParentRoute: () => appRoute, path: 'referral', component: ReferralPage });
export const notificationsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'notifications',
  component: NotificationsPage,
});
export const searchRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'search',
  validateSearch: (search: Record<string, unknown>): { term?: string } => ({ term: searchString(search, 'term') }),
  component: SearchPage,
});
export const searchResultsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'search-results',
  validateSearch: (search: Record<string, unknown>): { term?: string } => ({ term: searchString(search, 'term') }),
  component: SearchResultsPage,
});
