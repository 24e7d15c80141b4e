import { Box, Tooltip } from '@mantine/core';
import { useMemo } from 'react';
import { useVaultVersionStorageTxs } from '../../storage/storageTxStore';
import { STORAGE_STATUS_VIEW } from '../storage/storageStatus';
import type { VersionStatus } from './timelineItems';

/**
 * A file version's storage status on the timeline (spec 000 section 2, Timeline): the tooltip
 * texts and colours are the spec's. Committed versions and cloud versions (no status) show nothing.
 */
export const VERSION_STATUS_VIEW: Record<Exclude<VersionStatus, 'committed'>, { color: string; tooltip: string }> = {
  received: { color: 'orange', tooltip: "Your file is with the provider, next we'll bundle it with other files" },
  bundling: { color: 'orange', tooltip: 'being bundled before being sent to the network' },
  sent: { color: 'yellow', tooltip: 'now with the network, being processed' },
  rejected: { color: 'red', tooltip: 'rejected by the network. You can remove the file and try again.' },
  malicious: { color: 'pink', tooltip: 'classified as malicious' },
};

/** The dot, only for a status that has one: most rows have none and render nothing here. */
export function VersionStatusDot({ status }: { status: VersionStatus | null }) {
  if (!status || status === 'committed') return null;
  const { color, tooltip } = VERSION_STATUS_VIEW[status];
  return (
    <Tooltip label={tooltip} withArrow multiline maw={260}>
      <Box
        component="span"
        tabIndex={0}
        role="img"
        aria-label={tooltip}
        w={10}
        h={10}
        display="inline-block"
        style={{ borderRadius: '50%', background: `var(--mantine-color-${color}-6)`, flexShrink: 0 }}
      />
    </Tooltip>
  );
}

const NO_STATUSES: ReadonlyMap<string, VersionStatus> = new Map();

/**
 * The timeline dots' statuses of a vault's uploaded versions, by version id, from the device's
 * storage transaction cache (docs/SYNC_SPEC.md R39): one live read for the whole list. A version
 * with no cached transaction (cloud vaults) is not in the map and keeps its item's own status.
 */
export function useVaultVersionStatuses(vaultId: string): ReadonlyMap<string, VersionStatus> {
  const transactions = useVaultVersionStorageTxs(vaultId);
  return useMemo(() => {
    if (!transactions || transactions.size === 0) return NO_STATUSES;
    return new Map([...transactions].map(([versionId, tx]) => [versionId, STORAGE_STATUS_VIEW[tx.status].timeline]));
  }, [transactions]);
}
