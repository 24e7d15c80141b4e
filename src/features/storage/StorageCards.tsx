import { Button, Group, Paper, Progress, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { formatBytes, formatDateTime } from '../../domain/formatting';
import type { TopUpStorage } from '../../protocol/billing';
import { useOwnedUsageInputs, useStorageUsage } from '../../storage/storageTxStore';
import { currentStorageTxSync, onStorageTxChange, useStorageTxState } from '../../sync/storageTxSync';
import { showErrorSnackbar } from '../../ui/snackbar';
import { TopUpModal } from './TopUpModal';
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
  /** null: never fetched on this device yet. */
  used: number | null;
  total: number | null;
  categories: CategoryUsage;
  /** Opens the top-up form for this kind of storage (issue 21). */
  onTopUp: () => void;
}

/** One storage kind: used of total, free left, and the device's per-category split of what it knows. */
function StorageCard({ title, used, total, categories, onTopUp }: CardProps) {
  const free = used === null || total === null ? null : Math.max(0, total - used);
  const percent = (bytes: number) => (total ? Math.min(100, (bytes / total) * 100) : 0);
  const bytes = (value: number | null) => (value === null ? '—' : formatBytes(value));
  return (
    <Paper withBorder radius="md" p="md" aria-label={title} component="section">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700}>{title}</Text>
          <Button variant="light" size="xs" onClick={onTopUp}>
            Top up
          </Button>
        </Group>
        <Text size="xl" fw={700}>
          {bytes(used)}{' '}
          <Text span size="sm" c="dimmed" fw={400}>
            of {bytes(total)} used
          </Text>
        </Text>
        <Progress.Root size="lg" aria-label={`${title}: ${bytes(used)} of ${bytes(total)} used`}>
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
            {bytes(free)}
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
                {category === 'free' ? bytes(free) : formatBytes(categories[category])}
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
  const [topUp, setTopUp] = useState<TopUpStorage | null>(null);
  const cloudRecords = usage?.cloudLogUsed ?? 0;
  const permanentRecords = usage?.permanentLogUsed ?? 0;
  const categories = useMemo(
    () => categoryUsage(inputs?.vaults ?? [], inputs?.versions ?? [], { cloud: cloudRecords, permanent: permanentRecords }),
    [inputs, cloudRecords, permanentRecords],
  );
  // The session's sync starts in the shell's effect, after this page's on a fresh load: wait for it.
  const { sync } = useStorageTxState();

  useEffect(() => {
    if (!sync) return;
    void sync.refreshUsage();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const stop = onStorageTxChange(() => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void sync.refreshUsage(), STORAGE_REFRESH_DELAY_MS);
    });
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  }, [sync]);

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
        <StorageCard title="Permanent storage" used={usage?.permanentUsed ?? null} total={usage?.permanentTotal ?? null} categories={categories.permanent} onTopUp={() => setTopUp('permanent')} />
        <StorageCard title="Cloud storage" used={usage?.cloudUsed ?? null} total={usage?.cloudTotal ?? null} categories={categories.cloud} onTopUp={() => setTopUp('cloud')} />
      </SimpleGrid>
      <TopUpModal opened={topUp !== null} storage={topUp ?? 'cloud'} onClose={() => setTopUp(null)} />
    </Stack>
  );
}
