import { Drawer, Stack, Text } from '@mantine/core';
import { formatBytes, formatDateTime } from '../../domain/formatting';
import type { VaultRecord } from '../../storage/vaultRecords';
import { InfoList } from '../../ui/InfoList';

const STATUS_LABELS = { ACTIVE: 'Active', ARCHIVED: 'Inactive', DELETED: 'Removed' } as const;

/** The vault info drawer (spec 000 section 2): Vault ID, Vault URI, Created at, Status, Size. */
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
