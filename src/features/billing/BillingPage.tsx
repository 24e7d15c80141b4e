import { Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useSearch } from '@tanstack/react-router';
import { currencyOf, formatPrice, monthlyPriceOf } from '../../domain/planPricing';
import { isFreePlan } from '../../protocol/plans';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconStorage } from '../../ui/icons';
import { usePlans } from './usePlans';

function ToPricingPlans() {
  return (
    <Button component={Link} to="/account/plans-and-payments/pricing-plans" variant="default">
      See pricing plans
    </Button>
  );
}

/**
 * /account/plans-and-payments/billing (spec 002 section 2: checkout, reading `?plan=`): the plan
 * chosen on the pricing page and its price in the chosen currency. Checkout itself (billing
 * details, coupon, the upcoming invoice, payment by invoice) is the next part of issue 21; until
 * then the page says so plainly rather than offering a form that cannot take a payment.
 */
export function BillingPage() {
  const state = usePlans();
  const search = useSearch({ strict: false });
  const planId = search.plan;
  const currency = currencyOf(search.currency);

  if (state.status === 'loading') {
    return (
      <Center py="xl">
        <Loader aria-label="Loading the plans" />
      </Center>
    );
  }
  if (!planId) {
    return <EmptyPanel icon={<IconStorage size={28} />} title="No plan chosen" description="Choose a plan on the Pricing plans tab to subscribe to it." actions={<ToPricingPlans />} />;
  }
  if (state.status === 'error') {
    return <EmptyPanel icon={<IconStorage size={28} />} title="Plans not loaded" description={state.message} actions={<Button onClick={state.retry}>Try again</Button>} />;
  }
  const plan = state.plans.subscriptionPlans.find((candidate) => candidate.id === planId);
  if (!plan) {
    return <EmptyPanel icon={<IconStorage size={28} />} title="Plan not found" description="This server has no such plan. Choose one on the Pricing plans tab." actions={<ToPricingPlans />} />;
  }

  const price = formatPrice(monthlyPriceOf(plan, currency), currency);
  return (
    <Paper component="section" aria-labelledby="checkout-title" withBorder radius="md" p="lg" maw={640}>
      <Stack gap="md">
        <Title order={2} size="h3" id="checkout-title">
          {plan.name}
        </Title>
        <Group gap={6} align="baseline">
          <Text fz={28} fw={700} lh={1}>
            {price}
          </Text>
          <Text c="dimmed" size="sm">
            / month
          </Text>
        </Group>
        {plan.active_subscription ? (
          <Text>You are already on {plan.name}.</Text>
        ) : isFreePlan(plan) ? (
          <Text>{plan.name} is free: there is nothing to pay.</Text>
        ) : (
          <Text>
            Checkout comes next: paying for a plan is not yet available on this server. Until then, the server's operator can move your account to{' '}
            {plan.name}.
          </Text>
        )}
        <Group>
          <ToPricingPlans />
        </Group>
      </Stack>
    </Paper>
  );
}
