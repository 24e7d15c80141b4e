import { Anchor, Group, Table, Text, Tooltip } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { formatBytes, formatDate } from '../../domain/formatting';
import type { VaultRecord } from '../../storage/vaultRecords';
import { PrivacyIcon, StorageBadge } from '../../ui/VaultBadges';
import { VisuallyHidden } from '@mantine/core';
import { VaultMenu } from './VaultMenu';
import { isRefusedVault, RefusedVaultNotice } from './RefusedVaultNotice';

interface VaultListTableProps {
  vaults: VaultRecord[];
  status: string;
  onRename: (vault: VaultRecord) => void;
  onShowInfo: (vault: VaultRecord) => void;
}

/** Vault rows (spec 000 section 2, vault list rows); on a phone only name, size and the menu stay. */
export function VaultListTable({ vaults, status, onRename, onShowInfo }: VaultListTableProps) {
  const navigate = useNavigate();
  return (
    <Table highlightOnHover verticalSpacing="sm" layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th w={150} visibleFrom="xs">
            Storage
          </Table.Th>
          <Table.Th w={70} visibleFrom="xs">
            Privacy
          </Table.Th>
          <Table.Th w={100}>Size</Table.Th>
          <Table.Th w={120} visibleFrom="sm">
            Updated
          </Table.Th>
          <Table.Th w={52}>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {vaults.map((vault) => {
          // Spec 000 section 2: a pending invite opens /invite?membershipId=; awaiting the owner's
          // confirmation (INVITED) is not clickable.
          const inviteId = !vault.isPending && vault.membershipStatus === 'PENDING' ? vault.membershipId : undefined;
          const isRefused = isRefusedVault(vault);
          const isOpenable = ((vault.membershipStatus === 'ACCEPTED' && !vault.isPending) || inviteId !== undefined) && !isRefused;
          const name = vault.name || 'Untitled vault';
          const open = () =>
            void (inviteId
              ? navigate({ to: '/invite', search: { membershipId: inviteId } })
              : navigate({ to: '/vaults/$status/$vaultId/assets', params: { status, vaultId: vault.vaultId } }));
          return (
            <Table.Tr key={vault.vaultId} onClick={isOpenable ? open : undefined} style={{ cursor: isOpenable ? 'pointer' : undefined }}>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  {isOpenable ? (
                    <Anchor
                      renderRoot={(props) =>
                        inviteId ? (
                          <Link to="/invite" search={{ membershipId: inviteId }} {...props} />
                        ) : (
                          <Link to="/vaults/$status/$vaultId/assets" params={{ status, vaultId: vault.vaultId }} {...props} />
                        )
                      }
                      fw={600}
                      c="var(--mantine-color-text)"
                      truncate
                      onClick={(e) => e.stopPropagation()}
                    >
                      {name}
                    </Anchor>
                  ) : (
                    <Text fw={600} truncate>
                      {name}
                    </Text>
                  )}
                  {vault.isPending && (
                    <Text span c="dimmed" size="sm">
                      (Creating...)
                    </Text>
                  )}
                  {inviteId && (
                    <Text span c="dimmed" size="sm">
                      (Invitation)
                    </Text>
                  )}
                  {isRefused && (
                    <Text span c="dimmed" size="sm">
                      (Not created)
                    </Text>
                  )}
                  {!vault.isPending && vault.membershipStatus === 'INVITED' && (
                    <Tooltip label="The vault owner has to confirm your access before you can open it.">
                      <Text span c="dimmed" size="sm" tabIndex={0}>
                        <Text span visibleFrom="xs" inherit>
                          Pending access confirmation...
                        </Text>
                        <Text span hiddenFrom="xs" inherit>
                          Pending...
                        </Text>
                      </Text>
                    </Tooltip>
                  )}
                </Group>
                {isRefused && <RefusedVaultNotice vault={vault} />}
              </Table.Td>
              <Table.Td visibleFrom="xs">
                <StorageBadge isCloud={vault.isCloud} />
              </Table.Td>
              <Table.Td visibleFrom="xs">
                <PrivacyIcon isPublic={vault.isPublic} />
              </Table.Td>
              <Table.Td>{formatBytes(vault.size)}</Table.Td>
              <Table.Td visibleFrom="sm">{formatDate(vault.updatedAt)}</Table.Td>
              <Table.Td onClick={(e) => e.stopPropagation()}>
                {!isRefused && <VaultMenu vault={vault} onRename={() => onRename(vault)} onShowInfo={() => onShowInfo(vault)} />}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
