import { Alert, Anchor, Container, Loader, Text } from '@mantine/core';
import { Link, Outlet } from '@tanstack/react-router';
import { ORGANISATION_TEXTS } from '../../protocol/organisations';
import { PageHeader } from '../../ui/PageHeader';
import { RouteTabs } from '../../ui/RouteTabs';
import { PRICING_PLANS_PATH } from '../billing/UpgradeTierModal';
import { useMyOrganisation } from './useMyOrganisation';

/** The tabs of /account/organisation (spec 001 section 2), each a route of its own. */
export const ORGANISATION_TABS = [
  { value: 'details', label: 'Details' },
  { value: 'members', label: 'Members' },
  { value: 'invite', label: 'Invite' },
] as const;

const BASE_PATH = '/account/organisation';

/**
 * /account/organisation: details, members and invite. Shown to those the server says may see it
 * (`showMenu`); anyone else reaching the address is told why not: their plan lacks the feature,
 * or they are a plain member (the spec's 'not allowed' text).
 */
export function OrganisationLayout() {
  const state = useMyOrganisation();

  let body;
  if (state.status === 'loading') body = <Loader aria-label="Loading the organisation" />;
  else if (state.status === 'error') body = <Alert color="red" role="alert">{state.message}</Alert>;
  else if (!state.value.showMenu && !state.value.organisation) {
    body = (
      <Alert color="yellow" role="alert" title="Not in your plan">
        <Text size="sm">
          Your plan does not include the 'Organisation account' feature.{' '}
          <Anchor component={Link} to={PRICING_PLANS_PATH}>
            See the plans
          </Anchor>
        </Text>
      </Alert>
    );
  } else if (!state.value.showMenu) {
    body = <Alert color="red" role="alert">{ORGANISATION_TEXTS.notAllowed}</Alert>;
  } else {
    body = (
      <>
        <RouteTabs tabs={ORGANISATION_TABS} basePath={BASE_PATH} />
        <Outlet />
      </>
    );
  }

  return (
    <Container size={720} px={{ base: 'md', sm: 'lg' }} py="lg">
      <Anchor component={Link} to="/account" size="sm" c="dimmed" display="inline-block" mb={4}>
        ← Account
      </Anchor>
      <PageHeader title="Organisation" description="Your organisation's name, address, logo and colours, and its people." />
      {body}
    </Container>
  );
}
