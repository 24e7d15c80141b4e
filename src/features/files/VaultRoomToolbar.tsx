import { ActionIcon, Anchor, Breadcrumbs, Group, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { NodeRecord } from '../../storage/vaultRecords';
import { IconArrowLeft } from '../../ui/icons';
import { PrivacyIcon, StorageBadge } from '../../ui/VaultBadges';
import { GenerateManifest } from './GenerateManifest';
import { useVaultRoom } from './VaultRoomContext';
import { VaultRoomMenu } from './VaultRoomMenu';

interface VaultRoomToolbarProps {
  /** Folders from the top of the vault down to the current one. */
  path: NodeRecord[];
  actions?: ReactNode;
  /** Where the folder crumbs link to ('assets' or 'revoked-files'). */
  area?: 'assets' | 'revoked-files';
  /** The folder shown (the vault menu's Gallery opens on it). */
  folderId?: string | null;
}

/**
 * Back, vault name with the last two folders, Cloud/Permanent badge, Public/Private icon, and the
 * Generate JSON metadata link of public permanent vaults (spec 000 section 2), then the page's
 * own actions and the vault's actions menu (on every tab of the room).
 */
export function VaultRoomToolbar({ path, actions, area = 'assets', folderId = null }: VaultRoomToolbarProps) {
  const { vault, status } = useVaultRoom();
  const params = { status, vaultId: vault.vaultId };
  const shown = path.slice(-2);
  const name = vault.name || 'Untitled vault';

  const crumbs = [
    path.length === 0 ? (
      <Text key="root" fw={700} truncate component="span" aria-current="page">
        {name}
      </Text>
    ) : (
      <Anchor key="root" renderRoot={(props) => (area === 'assets' ? <Link to="/vaults/$status/$vaultId/assets" params={params} {...props} /> : <Link to="/vaults/$status/$vaultId/revoked-files" params={params} {...props} />)} fw={700} truncate>
        {name}
      </Anchor>
    ),
    ...(path.length > 2 ? [<Text key="more" c="dimmed" component="span" aria-label="More folders">…</Text>] : []),
    ...shown.map((folder, index) =>
      index === shown.length - 1 ? (
        <Text key={folder.id} fw={600} truncate component="span" aria-current="page">
          {folder.name}
        </Text>
      ) : (
        <Anchor
          key={folder.id}
          renderRoot={(props) =>
            area === 'assets' ? (
              <Link to="/vaults/$status/$vaultId/assets/folders/$folderId" params={{ ...params, folderId: folder.id }} {...props} />
            ) : (
              <Link to="/vaults/$status/$vaultId/revoked-files/folders/$folderId" params={{ ...params, folderId: folder.id }} {...props} />
            )
          }
          truncate
        >
          {folder.name}
        </Anchor>
      ),
    ),
  ];

  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" mb="md">
      <Group gap="xs" wrap="nowrap" miw={0}>
        <ActionIcon renderRoot={(props) => <Link to="/vaults/$status" params={{ status: 'active' }} {...props} />} variant="subtle" color="gray" size="lg" aria-label="Back to vaults">
          <IconArrowLeft size={20} />
        </ActionIcon>
        <Title order={1} fz={{ base: 18, xs: 22 }} miw={0} style={{ overflow: 'hidden' }} data-tour="vault-title">
          <Breadcrumbs separator="/" separatorMargin={6} styles={{ root: { flexWrap: 'nowrap' }, breadcrumb: { minWidth: 0 } }}>
            {crumbs}
          </Breadcrumbs>
        </Title>
        {/* The badge keeps its word; the name truncates first. */}
        <Group gap={8} wrap="nowrap" visibleFrom="xs" style={{ flexShrink: 0 }}>
          <StorageBadge isCloud={vault.isCloud} data-tour="vault-storage" />
          <PrivacyIcon isPublic={vault.isPublic} data-tour="vault-privacy" />
        </Group>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <GenerateManifest />
        {actions}
        <VaultRoomMenu folderId={folderId} />
      </Group>
    </Group>
  );
}
