import { Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useSearch } from '@tanstack/react-router';
import { currencyOf, formatPrice, monthlyPriceOf } from '../../domain/planPricing';
import { isFreePlan } from '../../protocol/plans';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconStorage } from '../../ui/icons';
import { CheckoutForm } from './CheckoutForm';
import { usePlans } from './usePlans';

/** Spec 002 section 9: 'default plan quantity 1 (0 if the parameter is invalid)'. */
function quantityOf(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  return /^[1-9]\d{0,3}$/.test(value) ? Number(value) : 0;
}

function ToPricingPlans() {
  return (
    <Button component={Link} to="/account/plans-and-payments/pricing-plans" variant="default">
      See pricing plans
    </Button>
  );
}

/**
 * /account/plans-and-payments/billing (spec 002 section 2: checkout, reading `?plan=`, `?quantity=`
 * and `?currency=`): the plan chosen on the pricing page, its price, and the checkout
 * (CheckoutForm). A free plan or the account's own plan has nothing to pay, and says so.
 */
export function BillingPage() {
  const state = usePlans();
  const search = useSearch({ strict: false });
  const planId = search.plan;
  const currency = currencyOf(search.currency);
  const quantity = quantityOf(search.quantity);

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

  const price = formatPrice(monthlyPriceOf(plan, currency, Math.max(quantity, 1)), currency);
  const header = (
    <Paper component="section" aria-labelledby="checkout-title" withBorder radius="md" p="lg">
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
        ) : quantity === 0 ? (
          <Text>The quantity in this page's address is not valid. Choose the plan again on the Pricing plans tab.</Text>
        ) : null}
        <Group>
          <ToPricingPlans />
        </Group>
      </Stack>
    </Paper>
  );
  if (plan.active_subscription || isFreePlan(plan) || quantity === 0) return <Stack maw={640}>{header}</Stack>;
  return (
    <Stack gap="lg" maw={640}>
      {header}
      <CheckoutForm plan={plan} currency={currency} quantity={quantity} />
    </Stack>
  );
}
