import { Button, Group, Paper, Progress, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { formatBytes, formatDateTime } from '../../domain/formatting';
import { useOwnedUsageInputs, useStorageUsage } from '../../storage/storageTxStore';
import { currentStorageTxSync, onStorageTxChange } from '../../sync/storageTxSync';
import { showErrorSnackbar } from '../../ui/snackbar';
import { CATEGORY_LABELS, type CategoryUsage, categoryUsage, USAGE_CATEGORIES, type UsageCategory } from './categoryUsage';

/** Spec 000 section 9: storage refresh about 2.5 s after a transaction change. */
export const STORAGE_REFRESH_DELAY_MS = 2_500;

const CATEGORY_COLORS: Record<UsageCategory, string> = {
  documents: 'blue',
  photos: 'teal',
  video: 'grape',
  audio: 'orange',
  other: 'gray',
};

interface CardProps {
  title: string;
  used: number;
  total: number;
  categories: CategoryUsage;
}

/** One storage kind: used of total, free left, and the device's per-category split of what it knows. */
function StorageCard({ title, used, total, categories }: CardProps) {
  const free = Math.max(0, total - used);
  const percent = (bytes: number) => (total > 0 ? Math.min(100, (bytes / total) * 100) : 0);
  return (
    <Paper withBorder radius="md" p="md" aria-label={title} component="section">
      <Stack gap="sm">
        <Text fw={700}>{title}</Text>
        <Text size="xl" fw={700}>
          {formatBytes(used)}{' '}
          <Text span size="sm" c="dimmed" fw={400}>
            of {formatBytes(total)} used
          </Text>
        </Text>
        <Progress.Root size="lg" aria-label={`${title}: ${formatBytes(used)} of ${formatBytes(total)} used`}>
          {USAGE_CATEGORIES.map((category) =>
            categories[category] > 0 ? (
              <Tooltip key={category} label={`${CATEGORY_LABELS[category]}: ${formatBytes(categories[category])}`}>
                <Progress.Section value={percent(categories[category])} color={CATEGORY_COLORS[category]} />
              </Tooltip>
            ) : null,
          )}
        </Progress.Root>
        <Text size="sm">
          <Text span fw={700}>
            {formatBytes(free)}
          </Text>{' '}
          free storage left
        </Text>
        <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="xs" verticalSpacing={4} component="dl" m={0}>
          {[...USAGE_CATEGORIES, 'free' as const].map((category) => (
            <Group key={category} gap={6} wrap="nowrap">
              <span
                aria-hidden
                style={{
                  width: 8,
                  height: 8,
                  borderRadius: '50%',
                  flexShrink: 0,
                  background: category === 'free' ? 'var(--mantine-color-default-border)' : `var(--mantine-color-${CATEGORY_COLORS[category]}-6)`,
                }}
              />
              <Text component="dt" size="xs" c="dimmed">
                {CATEGORY_LABELS[category]}
              </Text>
              <Text component="dd" size="xs" m={0} data-testid={`usage-${title.split(' ')[0]!.toLowerCase()}-${category}`}>
                {formatBytes(category === 'free' ? free : categories[category])}
              </Text>
            </Group>
          ))}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

/**
 * The permanent and cloud storage cards (spec 000 section 2, Storage page). Figures come from GET
 * /storage as cached on the device; 'Verify balance' asks again, and so does any storage
 * transaction change, 2.5 s later (several changes in a row cost one request).
 */
export function StorageCards() {
  const usage = useStorageUsage();
  const inputs = useOwnedUsageInputs();
  const [isVerifying, setVerifying] = useState(false);
  const categories = useMemo(() => categoryUsage(inputs?.vaults ?? [], inputs?.versions ?? []), [inputs]);

  useEffect(() => {
    void currentStorageTxSync()?.refreshUsage();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const stop = onStorageTxChange(() => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void currentStorageTxSync()?.refreshUsage(), STORAGE_REFRESH_DELAY_MS);
    });
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  }, []);

  async function verify() {
    setVerifying(true);
    const isFresh = (await currentStorageTxSync()?.refreshUsage()) ?? false;
    setVerifying(false);
    if (!isFresh) showErrorSnackbar('Your balance could not be verified. Check your connection and try again.');
  }

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="center">
        <Text size="sm" c="dimmed">
          {usage ? `Checked ${formatDateTime(usage.fetchedAt)}` : usage === null ? 'Not checked yet' : ' '}
        </Text>
        <Button variant="default" size="xs" onClick={() => void verify()} loading={isVerifying}>
          Verify balance
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <StorageCard title="Permanent storage" used={usage?.permanentUsed ?? 0} total={usage?.permanentTotal ?? 0} categories={categories.permanent} />
        <StorageCard title="Cloud storage" used={usage?.cloudUsed ?? 0} total={usage?.cloudTotal ?? 0} categories={categories.cloud} />
      </SimpleGrid>
    </Stack>
  );
}
