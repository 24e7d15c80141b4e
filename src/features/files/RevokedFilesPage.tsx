import { Button } from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import type { NodeRecord } from '../../storage/vaultRecords';
import { useChildren, useFolderPath } from '../../storage/vaultStore';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconArrowLeft, IconEyeOff } from '../../ui/icons';
import { confirmDeleteNodes, confirmRestoreNodes } from './fileCommands';
import { FileInfoDrawer } from './FileInfoDrawer';
import type { RowAction } from './FileRowMenu';
import { FolderList } from './FolderList';
import { useFileList } from './useFileList';
import { useVaultRoom } from './VaultRoomContext';
import { VaultRoomToolbar } from './VaultRoomToolbar';

/** .../revoked-files[/folders/$folderId]: hidden items, Restore and Delete (cloud) or Clear (permanent) (spec 000 section 4). */
export function RevokedFilesPage() {
  const { folderId: folderParam } = useParams({ strict: false });
  const folderId = folderParam ?? null;
  const { vault, status, canEdit } = useVaultRoom();
  const vaultId = vault.vaultId;
  const children = useChildren(vaultId, folderId, 'REVOKED');
  const path = useFolderPath(vaultId, folderId);
  const list = useFileList(children, `revoked/${vaultId}/${folderId ?? ''}`);
  const [infoNode, setInfoNode] = useState<NodeRecord | null>(null);
  const params = { status, vaultId };
  const deleteLabel = vault.isCloud ? 'Delete' : 'Clear';
  // Inside a hidden folder everything is hidden with it: actions apply to the folder itself.
  const isTopLevel = folderId === null;

  const rowActions = (node: NodeRecord): RowAction[] => [...(canEdit && isTopLevel ? (['restore', 'delete'] as const) : []), 'info'];
  function onAction(action: RowAction, node: NodeRecord) {
    if (action === 'restore') confirmRestoreNodes(vaultId, [node]);
    else if (action === 'delete') confirmDeleteNodes(vaultId, [node], vault.isCloud);
    else if (action === 'info') setInfoNode(node);
  }

  return (
    <>
      <VaultRoomToolbar
        path={path}
        area="revoked-files"
        actions={
          <Button renderRoot={(props) => <Link to="/vaults/$status/$vaultId/assets" params={params} {...props} />} variant="default" leftSection={<IconArrowLeft size={16} />}>
            Back to files
          </Button>
        }
      />
      <FolderList
        list={list}
        items={children}
        loadingLabel="Loading hidden files"
        empty={<EmptyPanel icon={<IconEyeOff size={28} />} title="No hidden files" description="Files and folders you hide are kept here until you restore them." />}
        onOpen={() => undefined}
        renderLink={(node) =>
          node.kind === 'folder'
            ? (props: Record<string, unknown>) => <Link to="/vaults/$status/$vaultId/revoked-files/folders/$folderId" params={{ ...params, folderId: node.id }} {...props} />
            : undefined
        }
        rowActions={rowActions}
        deleteLabel={deleteLabel}
        onAction={onAction}
        batch={{
          actions: [
            { label: 'Restore', onClick: () => confirmRestoreNodes(vaultId, list.selectedNodes, list.clearSelection), isDisabled: !canEdit || !isTopLevel },
            { label: deleteLabel, onClick: () => confirmDeleteNodes(vaultId, list.selectedNodes, vault.isCloud, list.clearSelection), isDisabled: !canEdit || !isTopLevel, isDanger: true },
          ],
        }}
      />
      <FileInfoDrawer node={infoNode} onClose={() => setInfoNode(null)} />
    </>
  );
}
