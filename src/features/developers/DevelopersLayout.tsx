import { Anchor, Container } from '@mantine/core';
import { Link, Outlet } from '@tanstack/react-router';
import { PageHeader } from '../../ui/PageHeader';
import { RouteTabs } from '../../ui/RouteTabs';

/** The tabs of /account/developers (spec 002 section 2: "API key" and "Webhook"), each a route of its own. */
export const DEVELOPERS_TABS = [
  { value: 'api-key', label: 'API key' },
  { value: 'webhook', label: 'Webhook' },
] as const;

export const DEVELOPERS_PATH = '/account/developers';

/**
 * /account/developers (issue 24): the account's API key and its webhook with the delivery log.
 * Passwordless users never reach it (all of /account is hidden for them).
 */
export function DevelopersLayout() {
  return (
    <Container size={720} px={{ base: 'md', sm: 'lg' }} py="lg">
      <Anchor component={Link} to="/account" size="sm" c="dimmed" display="inline-block" mb={4}>
        ← Account
      </Anchor>
      <PageHeader title="Developers" description="Script Cairn with an API key and the cairn command, and hear of events through a webhook." />
      <RouteTabs tabs={DEVELOPERS_TABS} basePath={DEVELOPERS_PATH} />
      <Outlet />
    </Container>
  );
}
