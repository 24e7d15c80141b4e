/**
 * /profile and /account with its children (spec 001 section 2: Account screens). The pages live
 * in features/settings and load on demand.
 */
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { searchString } from '../app/plainSearch';
import { appRoute } from './appRoute';

const settings = () => import('../features/settings/AccountRoutes');

const TwoFactorTotpPage = lazyRouteComponent(settings, 'TwoFactorTotpPage');
const TwoFactorPhonePage = lazyRouteComponent(settings, 'TwoFactorPhonePage');

export const profileRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'profile',
  component: lazyRouteComponent(() => import('../features/settings/ProfilePage')),
});

export const accountRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account',
  component: lazyRouteComponent(settings, 'AccountMenuPage'),
});

export const securityRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account/security',
  component: lazyRouteComponent(settings, 'SecurityPage'),
});

export const revealPhraseRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account/security/backup-phrase',
  component: lazyRouteComponent(settings, 'RevealPhrasePage'),
});

export const changePasswordRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account/security/change-password',
  component: lazyRouteComponent(settings, 'ChangePasswordPage'),
});

export const twoFactorRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account/security/two-factor-authentication',
  component: lazyRouteComponent(settings, 'TwoFactorPage'),
});

export const totpRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account/security/two-factor-authentication/totp',
  component: () => <TwoFactorTotpPage step="setup" />,
});

export const totpVerifyRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account/security/two-factor-authentication/totp/verify',
  component: () => <TwoFactorTotpPage step="verify" />,
});

export const phoneRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account/security/two-factor-authentication/phone-number',
  component: () => <TwoFactorPhonePage step="setup" />,
});

export const phoneVerifyRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account/security/two-factor-authentication/phone-number/verify',
  component: () => <TwoFactorPhonePage step="verify" />,
});

export const displayRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account/display',
  component: lazyRouteComponent(settings, 'DisplayPage'),
});

export const offlineFilesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account/offline',
  component: lazyRouteComponent(settings, 'OfflineFilesPage'),
});

export const notificationSettingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account/notifications',
  component: lazyRouteComponent(settings, 'NotificationsSettingsPage'),
});

/**
 * Plans and billing (spec 002 section 2): /account/plans-and-payments opens its pricing plans tab;
 * billing reads `?plan=` (and `?currency=`, as pricing plans does). Upgrade prompts lead to
 * pricing-plans.
 */
export const plansAndPaymentsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account/plans-and-payments',
  component: lazyRouteComponent(() => import('../features/billing/PlansAndPaymentsLayout'), 'PlansAndPaymentsLayout'),
});

const plansAndPaymentsIndexRoute = createRoute({
  getParentRoute: () => plansAndPaymentsRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/account/plans-and-payments/pricing-plans', replace: true });
  },
});

export const pricingPlansRoute = createRoute({
  getParentRoute: () => plansAndPaymentsRoute,
  path: 'pricing-plans',
  validateSearch: (search: Record<string, unknown>): { currency?: string } => ({ currency: searchString(search, 'currency') }),
  component: lazyRouteComponent(() => import('../features/billing/PricingPlansPage'), 'PricingPlansPage'),
});

export const billingRoute = createRoute({
  getParentRoute: () => plansAndPaymentsRoute,
  path: 'billing',
  validateSearch: (search: Record<string, unknown>): { plan?: string; currency?: string; quantity?: string } => ({
    plan: searchString(search, 'plan'),
    currency: searchString(search, 'currency'),
    quantity: searchString(search, 'quantity'),
  }),
  component: lazyRouteComponent(() => import('../features/billing/BillingPage'), 'BillingPage'),
});

export const invoicesRoute = createRoute({
  getParentRoute: () => plansAndPaymentsRoute,
  path: 'invoices',
  component: lazyRouteComponent(() => import('../features/billing/InvoicesPage'), 'InvoicesPage'),
});

export const plansAndPaymentsTree = plansAndPaymentsRoute.addChildren([plansAndPaymentsIndexRoute, pricingPlansRoute, billingRoute, invoicesRoute]);

/** Organisation (spec 001 section 2): details, members and invite tabs; the index opens details. */
const organisationPages = () => import('../features/organisation');

export const organisationRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account/organisation',
  component: lazyRouteComponent(organisationPages, 'OrganisationLayout'),
});

const organisationIndexRoute = createRoute({
  getParentRoute: () => organisationRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/account/organisation/details', replace: true });
  },
});

export const organisationTree = organisationRoute.addChildren([
  organisationIndexRoute,
  createRoute({ getParentRoute: () => organisationRoute, path: 'details', component: lazyRouteComponent(organisationPages, 'OrganisationDetailsPage') }),
  createRoute({ getParentRoute: () => organisationRoute, path: 'members', component: lazyRouteComponent(organisationPages, 'OrganisationMembersPage') }),
  createRoute({ getParentRoute: () => organisationRoute, path: 'invite', component: lazyRouteComponent(organisationPages, 'OrganisationInvitePage') }),
]);

/** Developers (spec 002 section 2; issue 24): the API key and webhook tabs; the index opens the API key. */
const developersPages = () => import('../features/developers');

export const developersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account/developers',
  component: lazyRouteComponent(developersPages, 'DevelopersLayout'),
});

const developersIndexRoute = createRoute({
  getParentRoute: () => developersRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/account/developers/api-key', replace: true });
  },
});

export const developersTree = developersRoute.addChildren([
  developersIndexRoute,
  createRoute({ getParentRoute: () => developersRoute, path: 'api-key', component: lazyRouteComponent(developersPages, 'ApiKeyTab') }),
  createRoute({ getParentRoute: () => developersRoute, path: 'webhook', component: lazyRouteComponent(developersPages, 'WebhookTab') }),
]);
