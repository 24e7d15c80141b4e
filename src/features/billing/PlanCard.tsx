import { Badge, Button, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { formatBytes } from '../../domain/formatting';
import { featureName, featuresOf, formatPrice, limitText, monthlyPriceOf } from '../../domain/planPricing';
import { isFreePlan, type PlanCurrency, type SubscriptionPlan } from '../../protocol/plans';
import { IconCheck } from '../../ui/icons';

interface PlanCardProps {
  plan: SubscriptionPlan;
  currency: PlanCurrency;
}

/**
 * One plan on the pricing page: its name, its price a month in the chosen currency, the storage
 * and limits the server enforces, its features (`metadata.app_features`), and either the current
 * plan's mark or, for a paid plan, the way to its checkout (the billing tab with `?plan=`).
 */
export function PlanCard({ plan, currency }: PlanCardProps) {
  const titleId = `plan-${plan.id}-title`;
  const isCurrent = plan.active_subscription;
  const features = featuresOf(plan);
  return (
    <Paper
      component="article"
      aria-labelledby={titleId}
      withBorder
      radius="md"
      p="lg"
      h="100%"
      style={isCurrent ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 } : undefined}
    >
      <Stack gap="md" h="100%">
        <Group justify="space-between" align="center" gap="xs" wrap="nowrap">
          <Title order={2} size="h3" id={titleId}>
            {plan.name}
          </Title>
          {isCurrent && (
            <Badge variant="filled" leftSection={<IconCheck size={12} />}>
              Current plan
            </Badge>
          )}
        </Group>
        <Group gap={6} align="baseline">
          <Text fz={32} fw={700} lh={1} data-testid="plan-price">
            {formatPrice(monthlyPriceOf(plan, currency), currency)}
          </Text>
          <Text c="dimmed" size="sm">
            / month
          </Text>
        </Group>
        <List spacing={6} size="sm" aria-label={`What ${plan.name} gives`}>
          <List.Item>{formatBytes(plan.storage.permanent_bytes)} permanent storage</List.Item>
          <List.Item>{formatBytes(plan.storage.cloud_bytes)} cloud storage</List.Item>
          <List.Item>{limitText(plan.limits.vaults, 'vault', 'vaults')}</List.Item>
          <List.Item>{limitText(plan.limits.members, 'member per vault', 'members per vault')}</List.Item>
        </List>
        {features.length > 0 && (
          <Stack gap={6}>
            <Text size="sm" fw={600}>
              Features
            </Text>
            <List
              spacing={6}
              size="sm"
              aria-label={`Features of ${plan.name}`}
              icon={
                <ThemeIcon size={18} radius="xl" variant="light">
                  <IconCheck size={12} />
                </ThemeIcon>
              }
            >
              {features.map((feature) => (
                <List.Item key={feature}>{featureName(feature)}</List.Item>
              ))}
            </List>
          </Stack>
        )}
        <Stack mt="auto" gap={0}>
          {isCurrent ? (
            <Text size="sm" c="dimmed">
              You are on this plan.
            </Text>
          ) : (
            !isFreePlan(plan) && (
              <Button
                renderRoot={(props) => <Link to="/account/plans-and-payments/billing" search={{ plan: plan.id, currency }} {...props} />}
                fullWidth
              >
                Choose {plan.name}
              </Button>
            )
          )}
        </Stack>
      </Stack>
    </Paper>
  );
}
