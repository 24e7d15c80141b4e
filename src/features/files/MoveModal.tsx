import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import type { NodeRecord } from '../../storage/vaultRecords';
import { submitMove } from './fileCommands';
import { FolderPicker } from './FolderPicker';
import { useVaultRoom } from './VaultRoomContext';

interface MoveModalProps {
  nodes: NodeRecord[] | null;
  currentFolderId: string | null;
  onClose: () => void;
  onMoved?: () => void;
}

/** Move to a folder or the root; the moved items (and so their subtrees) are not offered. */
export function MoveModal({ nodes, currentFolderId, onClose, onMoved }: MoveModalProps) {
  const { vault } = useVaultRoom();
  const [destination, setDestination] = useState<string | null>(currentFolderId);
  const [isBusy, setBusy] = useState(false);
  const excluded = useMemo(() => new Set((nodes ?? []).map((n) => n.id)), [nodes]);

  useEffect(() => {
    if (nodes) setDestination(currentFolderId);
  }, [nodes, currentFolderId]);

  async function move() {
    if (!nodes) return;
    setBusy(true);
    const ok = await submitMove(vault.vaultId, nodes, destination);
    setBusy(false);
    if (ok) {
      onMoved?.();
      onClose();
    }
  }

  const count = nodes?.length ?? 0;
  return (
    <Modal opened={nodes !== null} onClose={onClose} title={count === 1 ? `Move "${nodes?.[0]?.name}"` : `Move ${count} items`} centered>
      <Stack>
        <Text size="sm">Choose the destination folder.</Text>
        <FolderPicker vaultId={vault.vaultId} vaultName={vault.name} value={destination} onChange={setDestination} excludedIds={excluded} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void move()} disabled={destination === currentFolderId} loading={isBusy}>
            Move here
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
