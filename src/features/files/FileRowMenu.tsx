import { ActionIcon, Menu } from '@mantine/core';
import { useState } from 'react';
import type { NodeRecord } from '../../storage/vaultRecords';
import { IconDots } from '../../ui/icons';

export type RowAction = 'download' | 'rename' | 'move' | 'hide' | 'info' | 'restore' | 'delete';

interface FileRowMenuProps {
  node: NodeRecord;
  actions: RowAction[];
  deleteLabel?: string;
  onAction: (action: RowAction, node: NodeRecord) => void;
  /** -1 outside the list's current row (one tab stop per list; see FileTable). */
  tabIndex?: number;
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

/**
 * A file or folder's actions (availability from spec 000 section 6, decided by the caller). The
 * menu itself (a popover with its positioning hooks) is only built once the button is first
 * used: a row scrolled past should cost a button, not a menu.
 */
export function FileRowMenu({ node, actions, deleteLabel, onAction, tabIndex }: FileRowMenuProps) {
  const [isOpened, setOpened] = useState(false);
  const [isBuilt, setBuilt] = useState(false);
  const button = (
    <ActionIcon
      variant="subtle"
      color="gray"
      aria-label={`Actions for ${node.name}`}
      aria-haspopup="menu"
      tabIndex={tabIndex}
      onClick={
        isBuilt
          ? undefined
          : () => {
              setBuilt(true);
              setOpened(true);
            }
      }
    >
      <IconDots size={18} />
    </ActionIcon>
  );
  if (!isBuilt) return button;
  return (
    <Menu position="bottom-end" withinPortal opened={isOpened} onChange={setOpened}>
      <Menu.Target>{button}</Menu.Target>
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
