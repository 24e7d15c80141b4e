import { Box, Tooltip } from '@mantine/core';
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
