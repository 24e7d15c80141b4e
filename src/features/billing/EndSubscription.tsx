import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { EndSubscriptionResponse } from '../../protocol/billing';
import { ApiError } from '../../protocol/errors';
import type { SubscriptionPlan } from '../../protocol/plans';
import { getApiClient } from '../../platform/apiClient';
import { confirmAction } from '../../ui/confirmAction';
import { useReloadPlans } from './usePlans';

/**
 * End subscription (issue 21; SYNC_SPEC R117), under the pricing plans when the account is on a
 * paid plan: a confirmation, then the account is on the free default plan at once. What it owns
 * stays; past the free plan's limits it cannot add more.
 */
export function EndSubscription({ plan, freePlan }: { plan: SubscriptionPlan; freePlan: SubscriptionPlan }) {
  const reload = useReloadPlans();
  const [ending, setEnding] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const end = async () => {
    setEnding(true);
    setError(null);
    try {
      const answer = await getApiClient().delete('/billing/subscription', undefined, EndSubscriptionResponse);
      notifications.show({ color: 'green', message: `Subscription ended: you are on ${answer.planName}.` });
      await reload();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The subscription could not be ended. Check your connection and try again.');
    } finally {
      setEnding(false);
    }
  };

  return (
    <Paper component="section" aria-labelledby="end-subscription-title" withBorder radius="md" p="lg">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h4" id="end-subscription-title">
          Your subscription
        </Title>
        <Text size="sm">
          You are on {plan.name}. Ending the subscription moves you to {freePlan.name} at once.
        </Text>
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Button
          color="red"
          variant="light"
          loading={ending}
          onClick={() =>
            confirmAction({
              title: 'End subscription?',
              message: `You move to ${freePlan.name} now, with its storage and limits. Your vaults and files stay, but you cannot create more than ${freePlan.name} allows.`,
              confirmLabel: 'End subscription',
              isDanger: true,
              onConfirm: () => void end(),
            })
          }
        >
          End subscription
        </Button>
      </Stack>
    </Paper>
  );
}
