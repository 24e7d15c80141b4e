import { ActionIcon, Anchor, Badge, Box, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { NodeRecord } from '../../storage/vaultRecords';
import { IconFile, IconFolder, IconX } from '../../ui/icons';
import { useSyncStatus } from '../../sync';
import { dismissRejection } from '../../sync/vaultActions';
import { runWithErrorSnackbar } from '../../ui/snackbar';

interface NodeNameProps {
  node: NodeRecord;
  /** Renders the router link that opens the item (Mantine `renderRoot`); plain text when absent. */
  renderLink?: (props: Record<string, unknown>) => ReactNode;
}

/**
 * Icon, name (text only), a 'Syncing…' badge while operations wait ('Waiting to sync' offline),
 * and a dismissible rejection.
 */
export function NodeName({ node, renderLink }: NodeNameProps) {
  const rejection = node.rejection;
  const syncStatus = useSyncStatus();
  const pendingLabel = syncStatus === 'offline' ? 'Waiting to sync' : 'Syncing…';
  const Icon = node.kind === 'folder' ? IconFolder : IconFile;
  return (
    <Stack gap={2} miw={0}>
      <Group gap={8} wrap="nowrap" miw={0}>
        <Icon size={18} style={{ flexShrink: 0 }} />
        {renderLink ? (
          <Anchor renderRoot={renderLink} c="var(--mantine-color-text)" fw={500} truncate miw={0} onClick={(e) => e.stopPropagation()}>
            {node.name}
          </Anchor>
        ) : (
          <Text span fw={500} truncate miw={0}>
            {node.name}
          </Text>
        )}
        {node.pendingOpIds.length > 0 && (
          <>
            <Badge size="xs" variant="light" color="gray" visibleFrom="xs" style={{ flexShrink: 0 }}>
              {pendingLabel}
            </Badge>
            {/* Phones keep the room for the name: a dot that says the same to screen readers. */}
            <Box
              hiddenFrom="xs"
              role="img"
              aria-label={pendingLabel}
              title={pendingLabel}
              w={8}
              h={8}
              style={{ flexShrink: 0, borderRadius: '50%', background: 'var(--mantine-color-gray-5)' }}
            />
          </>
        )}
      </Group>
      {rejection && (
        <Group gap={4} wrap="nowrap" role="alert">
          <Text size="xs" c="red">
            {rejection.message}
          </Text>
          <ActionIcon size="xs" variant="subtle" color="red" aria-label="Dismiss" onClick={(e) => { e.stopPropagation(); void runWithErrorSnackbar(() => dismissRejection(rejection.opId), 'There was an error.'); }}>
            <IconX size={12} />
          </ActionIcon>
        </Group>
      )}
    </Stack>
  );
}
