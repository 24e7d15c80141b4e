import { Alert, Button, Center, Group, Loader, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { currencyOf } from '../../domain/planPricing';
import { isFreePlan, PLAN_CURRENCIES } from '../../protocol/plans';
import { IconAlert, IconInfo } from '../../ui/icons';
import { EndSubscription } from './EndSubscription';
import { PlanCard } from './PlanCard';
import { usePlans } from './usePlans';

/**
 * The pricing page's sunset notice (spec 002: 'this version is sunsetting: upgrades are no longer
 * possible'; the spec quotes no wording). The plans file's `sunset_notice: false` turns it off.
 */
export const SUNSET_NOTICE = 'This version of Cairn is sunsetting: upgrades are no longer possible.';

/**
 * /account/plans-and-payments/pricing-plans (spec 002 section 2), where the upgrade prompts lead:
 * the server's plans as cards, priced in the currency chosen above them (EUR, USD or GBP; USD by
 * default, kept in the address as `?currency=`), the user's current plan marked.
 */
export function PricingPlansPage() {
  const state = usePlans();
  const search = useSearch({ strict: false });
  const navigate = useNavigate();
  const currency = currencyOf(search.currency);

  if (state.status === 'loading') {
    return (
      <Center py="xl">
        <Loader aria-label="Loading the plans" />
      </Center>
    );
  }
  if (state.status === 'error') {
    return (
      <Alert color="red" variant="light" icon={<IconAlert size={18} />} title="Plans not loaded">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{state.message}</Text>
          <Button size="xs" variant="default" onClick={state.retry}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }

  const { subscriptionPlans, sunsetNotice, currentPlanId, defaultPlanId } = state.plans;
  const current = subscriptionPlans.find((plan) => plan.id === currentPlanId);
  const freePlan = subscriptionPlans.find((plan) => plan.id === defaultPlanId);
  return (
    <Stack gap="lg">
      {sunsetNotice && (
        <Alert color="yellow" variant="light" icon={<IconInfo size={18} />} role="note">
          {SUNSET_NOTICE}
        </Alert>
      )}
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" c="dimmed">
          Prices are per month. Storage and limits are what this server allows on each plan.
        </Text>
        <SegmentedControl
          aria-label="Currency"
          value={currency}
          onChange={(value) => void navigate({ to: '/account/plans-and-payments/pricing-plans', search: { currency: value }, replace: true })}
          data={PLAN_CURRENCIES.map((code) => ({ value: code, label: code.toUpperCase() }))}
        />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        {subscriptionPlans.map((plan) => (
          <PlanCard key={plan.id} plan={plan} currency={currency} />
        ))}
      </SimpleGrid>
      {current && freePlan && !isFreePlan(current) && <EndSubscription plan={current} freePlan={freePlan} />}
    </Stack>
  );
}
