import { Anchor, Badge, Button, Center, Group, Loader, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { getApiClient } from '../../platform/apiClient';
import { formatBytes, formatDateTime } from '../../domain/formatting';
import type { StorageTxStatus } from '../../protocol/arweave';
import { type StorageTxRecord, useStorageTransactions, useTransactionNames } from '../../storage/storageTxStore';
import { currentStorageTxSync, loadArweaveConfig, STORAGE_TX_PAGE, useArweaveConfig, useStorageTxState } from '../../sync/storageTxSync';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconStorage } from '../../ui/icons';
import { formatReward, STORAGE_STATUS_FILTER, STORAGE_STATUS_VIEW, txViewerLink } from './storageStatus';

/** A name the device cannot resolve: the version's vault is not (yet) on this device. */
export const UNKNOWN_NAME = 'Unknown file';

/** Filter options: one per distinct text (SCHEDULED and VERIFICATION both read 'With the provider'). */
const STATUS_OPTIONS = Object.entries(
  STORAGE_STATUS_FILTER.reduce<Record<string, StorageTxStatus[]>>((byLabel, status) => {
    (byLabel[STORAGE_STATUS_VIEW[status].label] ??= []).push(status);
    return byLabel;
  }, {}),
).map(([label, statuses]) => ({ value: statuses.join(','), label }));

function StatusBadge({ status }: { status: StorageTxStatus }) {
  const view = STORAGE_STATUS_VIEW[status];
  return (
    <Badge color={view.color} variant="light" radius="sm" style={{ textTransform: 'none', flexShrink: 0, maxWidth: 'none' }} styles={{ label: { overflow: 'visible' } }}>
      {view.label}
    </Badge>
  );
}

function ViewerLink({ tx, template }: { tx: StorageTxRecord; template: string | null }) {
  if (!tx.txId || !template) return <Text c="dimmed" size="sm">—</Text>;
  return (
    <Anchor href={txViewerLink(template, tx.txId)} target="_blank" rel="noopener noreferrer" size="sm">
      View
    </Anchor>
  );
}

function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 6)}…${id.slice(-4)}` : id;
}

/**
 * The transactions table (spec 000 section 2, Storage page): Name, File ID, Time, Size, Reward,
 * Status, Viewblock, 20 a page with 'Load more transactions...', filtered by status and name.
 * Below 668 px each transaction is a card instead of a row.
 */
export function StorageTransactions() {
  const transactions = useStorageTransactions();
  const { loadAttempted, hasMore, sync } = useStorageTxState();
  const config = useArweaveConfig();
  const isPhone = useMediaQuery('(max-width: 41.6875em)', undefined, { getInitialValueInEffect: false });
  const [shown, setShown] = useState(STORAGE_TX_PAGE);
  const [statusFilter, setStatusFilter] = useState<string | null>(null);
  const [nameFilter, setNameFilter] = useState('');
  const [isLoadingMore, setLoadingMore] = useState(false);
  const names = useTransactionNames(transactions ?? []);

  useEffect(() => {
    void loadArweaveConfig(getApiClient());
  }, []);
  // Opening the page looks for news once: a row scheduled after the last refresh reaches the
  // socket only when the relay reports on it (none while no gateway is configured).
  useEffect(() => {
    if (sync && loadAttempted) void sync.refresh();
    // Once per page visit and session, not on every state change.
  }, [sync]);

  const filtered = useMemo(() => {
    const statuses = statusFilter ? new Set(statusFilter.split(',')) : null;
    const term = nameFilter.trim().toLowerCase();
    return (transactions ?? []).filter(
      (tx) => (!statuses || statuses.has(tx.status)) && (!term || (names?.get(tx.fileId) ?? UNKNOWN_NAME).toLowerCase().includes(term)),
    );
  }, [transactions, names, statusFilter, nameFilter]);
  const visible = filtered.slice(0, shown);
  const canLoadMore = filtered.length > shown || hasMore;

  async function loadMore() {
    if (filtered.length <= shown && hasMore) {
      setLoadingMore(true);
      await currentStorageTxSync()?.loadMore();
      setLoadingMore(false);
    }
    setShown((count) => count + STORAGE_TX_PAGE);
  }

  if (transactions === undefined || (transactions.length === 0 && !loadAttempted)) {
    return (
      <Center py="xl">
        <Loader size="sm" aria-label="Loading transactions" />
      </Center>
    );
  }
  if (transactions.length === 0) {
    return (
      <EmptyPanel
        icon={<IconStorage size={28} />}
        title="No network transactions"
        description="Every file you store permanently is listed here with its transaction and status, from scheduled to committed on the network."
      />
    );
  }

  const template = config?.txViewerUrl ?? null;
  const nameOf = (tx: StorageTxRecord) => names?.get(tx.fileId) ?? UNKNOWN_NAME;
  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput label="Name" placeholder="Filter by name" value={nameFilter} onChange={(event) => setNameFilter(event.currentTarget.value)} w={{ base: '100%', xs: 240 }} />
        <Select label="Status" placeholder="All statuses" data={STATUS_OPTIONS} value={statusFilter} onChange={setStatusFilter} clearable w={{ base: '100%', xs: 280 }} />
      </Group>
      {visible.length === 0 ? (
        <Text c="dimmed" size="sm" py="md">
          No transactions match this filter.
        </Text>
      ) : isPhone ? (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Transactions">
          {visible.map((tx) => (
            <Paper key={tx.id} component="li" withBorder radius="md" p="sm" data-testid="storage-tx">
              <Stack gap={4}>
                <Text fw={700} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {nameOf(tx)}
                </Text>
                <StatusBadge status={tx.status} />
                <Text size="xs" c="dimmed">
                  {formatDateTime(Date.parse(tx.createdAt))} · {formatBytes(tx.size)} · {formatReward(tx.reward)}
                </Text>
                <Group justify="space-between" gap="xs">
                  <Text size="xs" c="dimmed" title={tx.fileId}>
                    File ID {shortId(tx.fileId)}
                  </Text>
                  <ViewerLink tx={tx} template={template} />
                </Group>
              </Stack>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table verticalSpacing="xs" highlightOnHover aria-label="Transactions" style={{ whiteSpace: 'nowrap' }}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>File ID</Table.Th>
                <Table.Th>Time</Table.Th>
                <Table.Th>Size</Table.Th>
                <Table.Th>Reward</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Viewblock</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {visible.map((tx) => (
                <Table.Tr key={tx.id} data-testid="storage-tx">
                  <Table.Td maw={260} style={{ whiteSpace: 'normal' }}>
                    <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                      {nameOf(tx)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace" title={tx.fileId}>
                      {shortId(tx.fileId)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDateTime(Date.parse(tx.createdAt))}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatBytes(tx.size)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatReward(tx.reward)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={tx.status} />
                  </Table.Td>
                  <Table.Td>
                    <ViewerLink tx={tx} template={template} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {canLoadMore && (
        <Center>
          <Button variant="subtle" onClick={() => void loadMore()} loading={isLoadingMore}>
            Load more transactions...
          </Button>
        </Center>
      )}
    </Stack>
  );
}
