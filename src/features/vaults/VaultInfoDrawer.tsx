import { Anchor, Badge, Drawer, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { formatBytes, formatDateTime } from '../../domain/formatting';
import { vaultListStatus } from '../../domain/memberRules';
import { getApiClient } from '../../platform/apiClient';
import type { VaultRecord } from '../../storage/vaultRecords';
import { loadArweaveConfig, useArweaveConfig } from '../../sync/storageTxSync';
import { InfoList } from '../../ui/InfoList';
import { STORAGE_STATUS_VIEW, txViewerLink } from '../storage/storageStatus';
import { useVaultHistory } from './useVaultHistory';

const STATUS_LABELS = { ACTIVE: 'Active', ARCHIVED: 'Inactive', DELETED: 'Removed' } as const;

/**
 * The vault info drawer (spec 000 section 2): Vault ID, Vault URI, Created at, Status, Size, and
 * for a permanent vault its contract (the first history item on the network, SYNC_SPEC R84) and a
 * link to its transaction history.
 */
export function VaultInfoDrawer({ vault, onClose }: { vault: VaultRecord | null; onClose: () => void }) {
  return (
    <Drawer opened={vault !== null} onClose={onClose} position="right" title="Vault info" size={336}>
      {vault && (
        <Stack gap="md">
          <Text fw={700} style={{ wordBreak: 'break-word' }}>
            {vault.name || 'Untitled vault'}
          </Text>
          <InfoList
            items={[
              ['Vault ID', vault.vaultId],
              ['Vault URI', `cairn://vault/${vault.vaultId}`],
              ...(vault.isCloud || vault.isPending ? [] : permanentRows(vault, onClose)),
              ['Created at', formatDateTime(vault.createdAt)],
              ['Status', vault.isPending ? 'Creating...' : STATUS_LABELS[vault.status]],
              ['Size', formatBytes(vault.size)],
            ]}
          />
        </Stack>
      )}
    </Drawer>
  );
}

function permanentRows(vault: VaultRecord, onClose: () => void): [string, React.ReactNode][] {
  const params = { status: vaultListStatus(vault.status), vaultId: vault.vaultId };
  return [
    ['Contract', <VaultContract key="contract" vault={vault} onClose={onClose} />],
    [
      'Transaction history',
      <Anchor key="history" size="sm" renderRoot={(props) => <Link to="/vaults/$status/$vaultId/history" params={params} {...props} />} onClick={onClose}>
        View transaction history
      </Anchor>,
    ],
  ];
}

/**
 * The vault's first history item, its "contract": the status of its run until the network has it
 * (as the storage page words it), then its id, linked to the configured transaction viewer, or to
 * the in-app history where no viewer is published (the embedded gateway, R54).
 */
function VaultContract({ vault, onClose }: { vault: VaultRecord; onClose: () => void }) {
  const history = useVaultHistory(vault.vaultId, true);
  const config = useArweaveConfig();
  useEffect(() => {
    void loadArweaveConfig(getApiClient());
  }, []);
  if (history.items === null) return <Text span size="sm" c="dimmed">{history.hasFailed ? 'Not available offline' : 'Loading...'}</Text>;
  const first = history.items[0];
  if (!first || first.status !== 'COMMITTED' || !first.dataItemId) {
    const view = STORAGE_STATUS_VIEW[first?.status ?? 'SCHEDULED'];
    return (
      <Badge component="span" color={view.color} variant="light" radius="sm" style={{ textTransform: 'none' }}>
        {view.label}
      </Badge>
    );
  }
  const id = first.dataItemId;
  if (config?.txViewerUrl) {
    return (
      <Anchor href={txViewerLink(config.txViewerUrl, id)} target="_blank" rel="noopener noreferrer" size="sm" ff="monospace" aria-label={`Contract ${id}`}>
        {id}
      </Anchor>
    );
  }
  const params = { status: vaultListStatus(vault.status), vaultId: vault.vaultId };
  return (
    <Anchor size="sm" ff="monospace" aria-label={`Contract ${id}`} renderRoot={(props) => <Link to="/vaults/$status/$vaultId/history" params={params} {...props} />} onClick={onClose}>
      {id}
    </Anchor>
  );
}
