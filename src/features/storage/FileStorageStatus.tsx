import { Anchor, Badge, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { getApiClient } from '../../platform/apiClient';
import { useVersionStorageTxs } from '../../storage/storageTxStore';
import { loadArweaveConfig, useArweaveConfig } from '../../sync/storageTxSync';
import { NOT_ON_GATEWAY_TEXT, STORAGE_STATUS_VIEW, txViewerLink } from './storageStatus';

/**
 * A file version's permanent storage in the file info drawer (spec 000 sections 2 and 4, File
 * storage): its transaction's status, then the gateway and transaction viewer links (hosts from
 * GET /config/arweave) once COMMITTED, and 'Your file is not yet available on the gateway.'
 * before. Nothing for a version without a storage transaction on this device (cloud vaults).
 */
/**
 * The item on the published gateway, or, when the server's gateway is its own (the embedded
 * arlocal publishes nothing, R54), through the server's read-only route (a download).
 */
function itemHref(gatewayUrl: string | null, itemId: string): string {
  return gatewayUrl ? `${gatewayUrl.replace(/\/$/, '')}/${encodeURIComponent(itemId)}` : `/api/arweave/tx/${encodeURIComponent(itemId)}`;
}

export function FileStorageStatus({ versionId }: { versionId: string | null }) {
  const transactions = useVersionStorageTxs(versionId ? [versionId] : []);
  const config = useArweaveConfig();
  useEffect(() => {
    void loadArweaveConfig(getApiClient());
  }, []);
  const tx = versionId ? transactions?.get(versionId) : undefined;
  if (!tx) return null;
  const view = STORAGE_STATUS_VIEW[tx.status];
  const itemId = tx.dataItemId ?? tx.txId;
  return (
    <Stack gap={6} component="section" aria-label="Permanent storage">
      <Text size="xs" c="dimmed" fw={600}>
        Network status
      </Text>
      <Badge color={view.color} variant="light" radius="sm" style={{ textTransform: 'none' }} w="fit-content">
        {view.label}
      </Badge>
      {tx.status === 'COMMITTED' && config && itemId ? (
        <Stack gap={2}>
          <Anchor href={itemHref(config.gatewayUrl, itemId)} target="_blank" rel="noopener noreferrer" size="sm">
            Open on the gateway
          </Anchor>
          {tx.txId && config.txViewerUrl && (
            <Anchor href={txViewerLink(config.txViewerUrl, tx.txId)} target="_blank" rel="noopener noreferrer" size="sm">
              View the transaction
            </Anchor>
          )}
        </Stack>
      ) : tx.status !== 'COMMITTED' ? (
        <Text size="sm" c="dimmed">
          {NOT_ON_GATEWAY_TEXT} Files typically take 5-15 minutes to become available.
        </Text>
      ) : null}
    </Stack>
  );
}
