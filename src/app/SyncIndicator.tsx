import { Badge, Box, Loader, Tooltip } from '@mantine/core';
import { useOutboxCount } from '../storage/vaultStore';
import { type SyncStatus, useRealtimeOpen, useSyncStatus } from '../sync';

interface Look {
  label: string;
  color: string;
  detail: string;
}

function lookOf(status: SyncStatus, waiting: number): Look {
  const queued = waiting === 1 ? '1 change is waiting to be sent.' : `${waiting} changes are waiting to be sent.`;
  switch (status) {
    case 'offline':
      return { label: 'Offline', color: 'gray', detail: `You're offline. ${waiting ? queued : 'Changes you make are kept on this device.'} They are sent when you're back online.` };
    case 'syncing':
      return { label: 'Syncing', color: 'blue', detail: waiting ? `Syncing. ${queued}` : 'Syncing your vaults.' };
    case 'error':
      return { label: 'Sync problem', color: 'red', detail: `Cairn cannot sync right now and keeps trying. ${waiting ? queued : ''}`.trim() };
    default:
      return waiting
        ? { label: `${waiting} waiting`, color: 'yellow', detail: queued }
        : { label: 'Synced', color: 'teal', detail: 'Everything is up to date.' };
  }
}

/**
 * The online / offline / syncing state in the top bar (docs/SYNC_SPEC.md R12), with how many
 * changes wait in the outbox. A text badge from 668 px; a coloured dot on phones.
 */
export function SyncIndicator() {
  const status = useSyncStatus();
  const isRealtimeOpen = useRealtimeOpen();
  const waiting = useOutboxCount();
  const look = lookOf(status, waiting);
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
