import { Navigate, Outlet } from '@tanstack/react-router';
import { isOrganisationInvitee } from '../organisation/organisationRules';
import { useMyOrganisationValue } from '../organisation/useMyOrganisation';
import { PageHeader } from '../../ui/PageHeader';
import { RouteTabs } from '../../ui/RouteTabs';
import { PlansProvider } from './usePlans';

/** The tabs of /account/plans-and-payments (spec 002 section 2), each a route of its own. */
export const PLANS_AND_PAYMENTS_TABS = [
  { value: 'pricing-plans', label: 'Pricing plans' },
  { value: 'billing', label: 'Billing' },
  { value: 'invoices', label: 'Invoices' },
] as const;

const BASE_PATH = '/account/plans-and-payments';

/**
 * Plans and billing (the avatar menu's entry; spec 000 section 2 and spec 002 section 2): the
 * pricing plans, billing (checkout, `?plan=`) and invoices tabs over the page each one shows.
 */
export function PlansAndPaymentsLayout() {
  // Spec 001 section 2: hidden for organisation invitees (the server refuses their purchases too).
  if (isOrganisationInvitee(useMyOrganisationValue()?.organisation)) return <Navigate to="/account" replace />;
  return (
    <PlansProvider>
      <PageHeader title="Plans and billing" description="Your plan, its price and your invoices." />
      <RouteTabs tabs={PLANS_AND_PAYMENTS_TABS} basePath={BASE_PATH} />
      <Outlet />
    </PlansProvider>
  );
}
