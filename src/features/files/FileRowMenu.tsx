import { ActionIcon, Menu } from '@mantine/core';
import type { NodeRecord } from '../../storage/vaultRecords';
import { IconDots } from '../../ui/icons';

export type RowAction = 'download' | 'rename' | 'move' | 'hide' | 'info' | 'restore' | 'delete';

interface FileRowMenuProps {
  node: NodeRecord;
  actions: RowAction[];
  deleteLabel?: string;
  onAction: (action: RowAction, node: NodeRecord) => void;
}

const LABELS: Record<RowAction, string> = {
  download: 'Download',
  rename: 'Rename',
  move: 'Move',
  hide: 'Hide',
  info: 'Info',
  restore: 'Restore',
  delete: 'Delete',
};

/** A file or folder's actions (availability from spec 000 section 6, decided by the caller). */
export function FileRowMenu({ node, actions, deleteLabel, onAction }: FileRowMenuProps) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${node.name}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((action) => (
          <Menu.Item key={action} color={action === 'delete' ? 'red' : undefined} onClick={() => onAction(action, node)}>
            {action === 'delete' && deleteLabel ? deleteLabel : LABELS[action]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
