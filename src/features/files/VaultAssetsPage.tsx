import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { splitExtension } from '../../domain/fileNaming';
import { canAddVersion } from '../../domain/fileVersionRules';
import { nodePath } from '../../domain/navigationRules';
import { nodeNameError } from '../../domain/nodeNames';
import { isMarkdownNote } from '../../domain/noteRules';
import { VAULT_LIMITS } from '../../protocol/vaults';
import type { NodeRecord } from '../../storage/vaultRecords';
import { useFolderChildren, useFolderPath } from '../../storage/vaultStore';
import { createFolder } from '../../sync/vaultActions';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconEyeOff, IconFile, IconFilter } from '../../ui/icons';
import { NameModal } from '../../ui/NameModal';
import { PlainLink } from '../../ui/PlainLink';
import { confirmHideNodes, downloadNodes, downloadSelection, submitNaming, submitRename } from './fileCommands';
import { FileInfoDrawer } from './FileInfoDrawer';
import type { RowAction } from './FileRowMenu';
import { FolderList } from './FolderList';
import { MoveModal } from './MoveModal';
import { PlusMenu } from './PlusMenu';
import { useUploadFlow } from './upload/useUploadFlow';
import { useEscapeToVaults } from './useEscapeToVaults';
import { useFileList } from './useFileList';
import { useNodeDrag } from './useNodeDrag';
import { useVaultRoom } from './VaultRoomContext';
import { publicFolderHref } from '../public/publicHref';
import { copyPublicLink, publicFileLink } from '../public/shareLinks';
import { VaultRoomToolbar } from './VaultRoomToolbar';
import { VaultTour } from './tour/VaultTour';
import { usePendingUploads } from './upload/PendingUploads';

/** The plus menu's note when an airdrop link was made with no storage (the server's own words). */
const NO_UPLOADS_TEXT = 'This link does not allow uploads.';

/** .../assets and .../assets/folders/$folderId: the Files tab (spec 000 section 2, vault room). */
export function VaultAssetsPage() {
  const { folderId: folderParam } = useParams({ strict: false });
  const folderId = folderParam ?? null;
  const { vault, status, canAdd, canUpload, canEdit } = useVaultRoom();
  const vaultId = vault.vaultId;
  const navigate = useNavigate();
  // A large folder shows its first rows at once and the rest when read (isComplete).
  const { nodes: children, isComplete, readAt } = useFolderChildren(vaultId, folderId);
  const path = useFolderPath(vaultId, folderId);
  const pending = usePendingUploads(vaultId, folderId, children, readAt);
  const list = useFileList(children, `${vaultId}/${folderId ?? ''}`, pending.rows);
  const upload = useUploadFlow(vaultId, folderId, isComplete ? children : undefined);
  const [renaming, setRenaming] = useState<NodeRecord | null>(null);
  const [isCreatingFolder, setCreatingFolder] = useState(false);
  const [moving, setMoving] = useState<NodeRecord[] | null>(null);
  const [infoNode, setInfoNode] = useState<NodeRecord | null>(null);
  const pathIds = useMemo(() => path.map((n) => n.id), [path]);
  const drag = useNodeDrag({ vaultId, isEnabled: canEdit, nodes: list.sorted, selected: list.selected, pathIds, onMoved: list.clearSelection });
  useEscapeToVaults();

  const params = { status, vaultId };
  const openNode = (node: NodeRecord) =>
    node.kind === 'folder'
      ? void navigate({ to: '/vaults/$status/$vaultId/assets/folders/$folderId', params: { ...params, folderId: node.id } })
      : void navigate({ to: '/vaults/$status/$vaultId/stack/$stackId', params: { ...params, stackId: node.id } });
  // Plain anchors, not Link: a fast scroll mounts a dozen rows a frame (PlainLink).
  const renderLink = (node: NodeRecord) => (props: Record<string, unknown>) => <PlainLink href={nodePath(`/vaults/${status}/${vaultId}`, node)} {...props} />;

  const rowActions = (node: NodeRecord): RowAction[] => [
    ...(node.kind === 'file' ? (['download'] as const) : []),
    // 'Add new version': non-notes only, and never manifest.json (spec 000 section 6).
    ...(canUpload && canAddVersion(node) ? (['addVersion'] as const) : []),
    // 'Edit note' only for markdown files (spec 000 section 6).
    ...(canEdit && node.kind === 'file' && isMarkdownNote(node.name, node.mimeType) ? (['editNote'] as const) : []),
    // 'Share' only for public vaults (spec 000 section 6).
    ...(vault.isPublic && node.status === 'ACTIVE' ? (['share'] as const) : []),
    ...(canEdit ? (['rename', 'move', 'hide'] as const) : []),
    'info',
  ];
  function onAction(action: RowAction, node: NodeRecord) {
    if (action === 'download') void downloadNodes(vaultId, [node]);
    else if (action === 'addVersion') upload.pickVersion(node);
    else if (action === 'editNote') void navigate({ to: '/vaults/$status/$vaultId/$roomView/note/$noteId', params: { ...params, roomView: 'assets', noteId: node.id } });
    else if (action === 'share') void copyPublicLink(node.kind === 'file' ? publicFileLink(vaultId, node) : `${window.location.origin}${publicFolderHref('assets', 'active', vaultId, node.id)}`);
    else if (action === 'rename') setRenaming(node);
    else if (action === 'move') setMoving([node]);
    else if (action === 'hide') confirmHideNodes(vaultId, [node]);
    else if (action === 'info') setInfoNode(node);
  }

  // Moving everything at the root leaves no destination (spec 000 section 5).
  const isMoveBlocked = !isComplete || (folderId === null && children !== undefined && list.selectedNodes.length === children.length);
  const addDisabledReason = canAdd ? null : vault.status !== 'ACTIVE' ? 'Nothing can be added to an inactive vault' : 'You cannot add to this vault';

  const plus = (
    <Tooltip label={addDisabledReason} disabled={addDisabledReason === null}>
      <span>
        <PlusMenu
          isDisabled={!canAdd}
          uploadDisabledReason={canUpload ? null : NO_UPLOADS_TEXT}
          isInFolder={folderId !== null}
          onUploadFiles={upload.pickFiles}
          onUploadFolder={upload.pickFolder}
          onUploadZip={upload.pickZip}
          onImportTransaction={upload.openImportTx}
          onCreateFolder={() => setCreatingFolder(true)}
          onCreateNote={() => void navigate({ to: '/vaults/$status/$vaultId/assets/create-note', params, state: (s) => ({ ...s, folderId }) })}
        />
      </span>
    </Tooltip>
  );

  return (
    <>
      <VaultRoomToolbar
        path={path}
        folderId={folderId}
        actions={
          <>
            {plus}
            <Tooltip label="Filter the timeline">
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                aria-label="Filter the timeline"
                onClick={() => void navigate({ to: '/vaults/$status/$vaultId/timeline', params, state: { openFilters: true } })}
              >
                <IconFilter />
              </ActionIcon>
            </Tooltip>
            <Button renderRoot={(props) => <Link to="/vaults/$status/$vaultId/revoked-files" params={params} {...props} />} variant="subtle" color="gray" leftSection={<IconEyeOff size={16} />} visibleFrom="sm" data-tour="hidden-files">
              Hidden files
            </Button>
          </>
        }
      />
      <div data-tour="file-list">
        <FolderList
          list={list}
          items={children}
          loadingLabel="Loading files"
          empty={
            <EmptyPanel
              icon={<IconFile size={28} />}
              title={folderId ? 'This folder is empty' : 'Add your first file'}
              description={
                vault.isPublic
                  ? 'Files you upload here can be seen by anyone with the link.'
                  : 'Files you upload are encrypted on this device before they leave it.'
              }
              actions={
                canUpload && (
                  <Button onClick={upload.pickFiles} variant="light">
                    Upload file
                  </Button>
                )
              }
            />
          }
          onOpen={openNode}
          renderLink={renderLink}
          rowActions={rowActions}
          onAction={onAction}
          drag={drag}
          isComplete={isComplete}
          uploads={pending.uploads}
          batch={{
            onDownload: () => void downloadSelection(vaultId, vault.name, list.selectedNodes),
            actions: [
              { label: 'Hide', onClick: () => confirmHideNodes(vaultId, list.selectedNodes, list.clearSelection), isDisabled: !canEdit },
              { label: 'Move', onClick: () => setMoving(list.selectedNodes), isDisabled: !canEdit || isMoveBlocked },
            ],
          }}
        />
      </div>
      {upload.uploadDialogs}
      {folderId === null && <VaultTour vault={vault} isReady={children !== undefined} />}
      <NameModal
        opened={renaming !== null}
        title={renaming?.kind === 'folder' ? 'Rename folder' : 'Rename file'}
        label="Name"
        initialValue={renaming?.name ?? ''}
        submitLabel="Rename"
        maxLength={VAULT_LIMITS.NAME_MAX}
        selectLength={renaming?.kind === 'file' ? splitExtension(renaming.name)[0].length : undefined}
        validate={(name) => nodeNameError(name, children ?? [], renaming?.id)}
        onClose={() => setRenaming(null)}
        onSubmit={(name) => (renaming ? submitRename(vaultId, renaming, name) : Promise.resolve(false))}
      />
      <NameModal
        opened={isCreatingFolder}
        title={folderId ? 'Create sub folder' : 'Create folder'}
        label="Folder name"
        submitLabel="Create"
        maxLength={VAULT_LIMITS.NAME_MAX}
        onClose={() => setCreatingFolder(false)}
        validate={(name) => nodeNameError(name, children ?? [])}
        onSubmit={(name) => submitNaming(() => createFolder(vaultId, folderId, name))}
      />
      <MoveModal nodes={moving} currentFolderId={folderId} onClose={() => setMoving(null)} onMoved={list.clearSelection} />
      <FileInfoDrawer node={infoNode} onClose={() => setInfoNode(null)} />
    </>
  );
}
