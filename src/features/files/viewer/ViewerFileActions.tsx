import { useState } from 'react';
import { splitExtension } from '../../../domain/fileNaming';
import { nodeNameError } from '../../../domain/nodeNames';
import { VAULT_LIMITS } from '../../../protocol/vaults';
import type { NodeRecord } from '../../../storage/vaultRecords';
import { NameModal } from '../../../ui/NameModal';
import { confirmHideNodes, downloadNodes, submitRename } from '../fileCommands';
import { FileInfoDrawer } from '../FileInfoDrawer';
import { FileRowMenu, type RowAction } from '../FileRowMenu';
import { MoveModal } from '../MoveModal';
import { useVaultRoom } from '../VaultRoomContext';

interface ViewerFileActionsProps {
  node: NodeRecord;
  /** The other items of the file's folder, for the rename check (SYNC_SPEC R73). */
  siblings: readonly NodeRecord[];
  versionId: string | undefined;
  /** After the file was hidden: it leaves the folder, so the viewer goes back to it. */
  onHidden: () => void;
}

/** The file's actions in the viewer, as in its row's menu: download, rename, move, hide, info. */
export function ViewerFileActions({ node, siblings, versionId, onHidden }: ViewerFileActionsProps) {
  const { vault, canEdit } = useVaultRoom();
  const [isRenaming, setRenaming] = useState(false);
  const [moving, setMoving] = useState<NodeRecord[] | null>(null);
  const [isInfoOpen, setInfoOpen] = useState(false);
  const actions: RowAction[] = ['download', ...(canEdit ? (['rename', 'move', 'hide'] as const) : []), 'info'];

  function onAction(action: RowAction) {
    if (action === 'download') void downloadNodes(vault.vaultId, [node], versionId);
    else if (action === 'rename') setRenaming(true);
    else if (action === 'move') setMoving([node]);
    else if (action === 'hide') confirmHideNodes(vault.vaultId, [node], onHidden);
    else if (action === 'info') setInfoOpen(true);
  }

  return (
    <>
      <FileRowMenu node={node} actions={actions} onAction={onAction} />
      <NameModal
        opened={isRenaming}
        title="Rename file"
        label="Name"
        initialValue={node.name}
        submitLabel="Rename"
        maxLength={VAULT_LIMITS.NAME_MAX}
        selectLength={splitExtension(node.name)[0].length}
        validate={(name) => nodeNameError(name, siblings, node.id)}
        onClose={() => setRenaming(false)}
        onSubmit={(name) => submitRename(vault.vaultId, node, name)}
      />
      <MoveModal nodes={moving} currentFolderId={node.parentId} onClose={() => setMoving(null)} />
      <FileInfoDrawer node={isInfoOpen ? node : null} onClose={() => setInfoOpen(false)} />
    </>
  );
}
