import { Tabs } from '@mantine/core';
import { Navigate, Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import { isOrganisationInvitee } from '../organisation/organisationRules';
import { useMyOrganisationValue } from '../organisation/useMyOrganisation';
import { PageHeader } from '../../ui/PageHeader';
import { PlansProvider } from './usePlans';

/** The tabs of /account/plans-and-payments (spec 002 section 2), each a route of its own. */
export const PLANS_AND_PAYMENTS_TABS = [
  { value: 'pricing-plans', label: 'Pricing plans' },
  { value: 'billing', label: 'Billing' },
  { value: 'invoices', label: 'Invoices' },
] as const;

export type PlansAndPaymentsTab = (typeof PLANS_AND_PAYMENTS_TABS)[number]['value'];

const BASE_PATH = '/account/plans-and-payments';

function tabOf(pathname: string): PlansAndPaymentsTab {
  const segment = pathname.slice(BASE_PATH.length + 1).split('/')[0];
  return PLANS_AND_PAYMENTS_TABS.find((tab) => tab.value === segment)?.value ?? 'pricing-plans';
}

/**
 * Plans and billing (the avatar menu's entry; spec 000 section 2 and spec 002 section 2): the
 * pricing plans, billing (checkout, `?plan=`) and invoices tabs over the page each one shows.
 */
export function PlansAndPaymentsLayout() {
  const pathname = useLocation({ select: (location) => location.pathname });
  const navigate = useNavigate();
  const current = tabOf(pathname);
  // Spec 001 section 2: hidden for organisation invitees (the server refuses their purchases too).
  if (isOrganisationInvitee(useMyOrganisationValue()?.organisation)) return <Navigate to="/account" replace />;
  return (
    <PlansProvider>
      <PageHeader title="Plans and billing" description="Your plan, its price and your invoices." />
      <Tabs
        value={current}
        mb="lg"
        onChange={(value) => {
          const tab = PLANS_AND_PAYMENTS_TABS.find((candidate) => candidate.value === value);
          if (tab && tab.value !== current) void navigate({ to: `/account/plans-and-payments/${tab.value}` });
        }}
      >
        <Tabs.List>
          {PLANS_AND_PAYMENTS_TABS.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </PlansProvider>
  );
}
