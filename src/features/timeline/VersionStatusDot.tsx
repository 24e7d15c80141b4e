import { Box, Tooltip } from '@mantine/core';
import { useVersionStorageTxs } from '../../storage/storageTxStore';
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

/**
 * The dot for an uploaded version: its status from the device's storage transaction cache
 * (docs/SYNC_SPEC.md R39); `fallback` when the cache has no transaction for it (cloud vaults).
 */
export function StoredVersionStatusDot({ versionId, fallback }: { versionId: string | null | undefined; fallback: VersionStatus | null }) {
  const transactions = useVersionStorageTxs(versionId ? [versionId] : []);
  const tx = versionId ? transactions?.get(versionId) : undefined;
  return <VersionStatusDot status={tx ? STORAGE_STATUS_VIEW[tx.status].timeline : fallback} />;
}
