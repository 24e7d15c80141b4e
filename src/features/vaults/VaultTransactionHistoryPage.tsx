import { Anchor, Badge, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { formatBytes, formatDateTime } from '../../domain/formatting';
import type { VaultHistoryItem } from '../../protocol/arweave';
import { getApiClient } from '../../platform/apiClient';
import { loadArweaveConfig, useArweaveConfig } from '../../sync/storageTxSync';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconArrowLeft, IconCloud } from '../../ui/icons';
import { useVaultRoom } from '../files/VaultRoomContext';
import { VaultRoomMenu } from '../files/VaultRoomMenu';
import { STORAGE_STATUS_VIEW, txViewerLink } from '../storage/storageStatus';
import { useVaultHistory } from './useVaultHistory';

/**
 * /vaults/{status}/{vaultId}/history: a permanent vault's transaction history (spec 000 section 2,
 * Vault info; SYNC_SPEC R84): each run of the vault's log on the network with its operations, its
 * status in the storage page's words and its item id, linked to the configured transaction viewer.
 * The first is the vault's contract. Reached from the vault info drawer.
 */
export function VaultTransactionHistoryPage() {
  const { vault, status } = useVaultRoom();
  const history = useVaultHistory(vault.vaultId, !vault.isCloud);
  const config = useArweaveConfig();
  useEffect(() => {
    void loadArweaveConfig(getApiClient());
  }, []);
  const params = { status, vaultId: vault.vaultId };

  return (
    <Stack gap="md" p="md" maw={880}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="xs" wrap="nowrap">
          <Title order={2} size="h3">
            Transaction history
          </Title>
          <VaultRoomMenu />
        </Group>
        <Button renderRoot={(props) => <Link to="/vaults/$status/$vaultId/assets" params={params} {...props} />} variant="default" leftSection={<IconArrowLeft size={16} />}>
          Back to files
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Every change to {vault.name || 'this vault'} is also stored on the network, signed by its author, in the order the server accepted it. Names, notes,
        messages and file contents stay encrypted.
      </Text>
      {vault.isCloud ? (
        <EmptyPanel icon={<IconCloud size={28} />} title="No network history" description="This vault is kept in cloud storage: its history is not on the network." />
      ) : history.items === null ? (
        history.hasFailed ? (
          <Text size="sm" c="dimmed">
            The history could not be loaded. Check your connection and try again.
          </Text>
        ) : (
          <Center py="xl">
            <Loader aria-label="Loading transaction history" />
          </Center>
        )
      ) : (
        <Stack gap="xs" component="ol" m={0} p={0} aria-label="Network items" style={{ listStyle: 'none' }}>
          {history.items.length === 0 && <Text size="sm">{STORAGE_STATUS_VIEW.SCHEDULED.label}: the vault&apos;s first changes will be sent in a moment.</Text>}
          {history.items.map((item, index) => (
            <HistoryRow key={item.seqFrom} item={item} isContract={index === 0} viewer={config?.txViewerUrl ?? null} />
          ))}
          {history.isWaiting && history.items.length > 0 && !history.hasMore && (
            <Text component="li" size="sm" c="dimmed">
              Newer changes are waiting to be sent.
            </Text>
          )}
        </Stack>
      )}
      {history.hasMore && (
        <Center>
          <Button variant="subtle" onClick={history.loadMore}>
            Load more transactions...
          </Button>
        </Center>
      )}
    </Stack>
  );
}

function HistoryRow({ item, isContract, viewer }: { item: VaultHistoryItem; isContract: boolean; viewer: string | null }) {
  const view = STORAGE_STATUS_VIEW[item.status];
  const range = item.seqFrom === item.seqTo ? `Change ${item.seqFrom}` : `Changes ${item.seqFrom}–${item.seqTo}`;
  return (
    <Paper component="li" withBorder p="sm" radius="md" data-testid="history-item">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="sm" fw={600}>
            {range}
            {isContract ? ' · Contract' : ''}
          </Text>
          <Badge color={view.color} variant="light" radius="sm" style={{ textTransform: 'none' }}>
            {view.label}
          </Badge>
        </Group>
        {item.dataItemId && (
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} data-testid="history-item-id">
            {viewer ? (
              <Anchor href={txViewerLink(viewer, item.dataItemId)} target="_blank" rel="noopener noreferrer" inherit>
                {item.dataItemId}
              </Anchor>
            ) : (
              item.dataItemId
            )}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {formatDateTime(Date.parse(item.createdAt))} · {formatBytes(item.size)}
        </Text>
      </Stack>
    </Paper>
  );
}
