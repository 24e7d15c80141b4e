import { Badge, Box, Loader, Tooltip } from '@mantine/core';
import { useChangesWaiting } from '../storage/vaultStore';
import { syncLookOf } from '../domain/syncStatusText';
import { useRealtimeOpen, useSyncStatus } from '../sync';

/**
 * The online / offline / syncing state in the top bar (docs/SYNC_SPEC.md R12), with how many
 * changes wait to be sent (operations and uploads). A text badge from 668 px; a coloured dot on phones.
 */
export function SyncIndicator() {
  const status = useSyncStatus();
  const isRealtimeOpen = useRealtimeOpen();
  const waiting = useChangesWaiting();
  const look = syncLookOf(status, waiting);
  return (
    <Tooltip label={look.detail} multiline maw={260} events={{ hover: true, focus: true, touch: true }}>
      <Box component="span" tabIndex={0} role="status" aria-label={`Sync: ${look.label}. ${look.detail}`} data-sync-status={status} data-realtime={isRealtimeOpen ? 'open' : 'closed'} style={{ display: 'inline-flex', outlineOffset: 2 }}>
        <Badge
          visibleFrom="xs"
          variant="light"
          color={look.color}
          leftSection={status === 'syncing' ? <Loader size={10} color={look.color} /> : undefined}
          styles={{ root: { textTransform: 'none' } }}
        >
          {look.label}
        </Badge>
        <Box
          hiddenFrom="xs"
          w={10}
          h={10}
          style={{ borderRadius: '50%', background: `var(--mantine-color-${look.color}-filled)` }}
        />
      </Box>
    </Tooltip>
  );
}
