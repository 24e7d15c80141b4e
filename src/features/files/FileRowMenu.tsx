import { ActionIcon, Menu, UnstyledButton } from '@mantine/core';
import { useLayoutEffect, useRef, useState } from 'react';
import type { NodeRecord } from '../../storage/vaultRecords';
import { IconDots } from '../../ui/icons';
import classes from './FileRow.module.css';

export type RowAction = 'download' | 'addVersion' | 'editNote' | 'share' | 'rename' | 'move' | 'hide' | 'info' | 'restore' | 'delete';

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
  addVersion: 'Add new version',
  editNote: 'Edit note',
  share: 'Share',
  rename: 'Rename',
  move: 'Move',
  hide: 'Hide',
  info: 'Info',
  restore: 'Restore',
  delete: 'Delete',
};

// Until the menu is built, the button is Mantine's ActionIcon markup (subtle, gray) without its
// components; built, it is the real one.
const BUTTON_CLASS = `mantine-focus-auto mantine-active ${ActionIcon.classes.root} ${UnstyledButton.classes.root} ${classes.menuButton}`;

/**
 * A file or folder's actions (availability from spec 000 section 6, decided by the caller). The
 * menu itself (a popover with its positioning hooks) is only built once the button is first
 * used: a row scrolled past should cost a button, not a menu.
 */
export function FileRowMenu({ node, actions, deleteLabel, onAction, tabIndex }: FileRowMenuProps) {
  const [isOpened, setOpened] = useState(false);
  const [isBuilt, setBuilt] = useState(false);
  const target = useRef<HTMLButtonElement>(null);
  const wasFocused = useRef(false);
  const label = `Actions for ${node.name}`;
  // The built button replaces the plain one: keep the keyboard focus on it.
  useLayoutEffect(() => {
    if (isBuilt && wasFocused.current) target.current?.focus();
  }, [isBuilt]);

  if (!isBuilt) {
    return (
      <button
        type="button"
        className={BUTTON_CLASS}
        data-variant="subtle"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={false}
        tabIndex={tabIndex}
        onClick={(e) => {
          wasFocused.current = document.activeElement === e.currentTarget;
          setBuilt(true);
          setOpened(true);
        }}
      >
        <span className={ActionIcon.classes.icon}>
          <IconDots size={18} />
        </span>
      </button>
    );
  }
  return (
    <Menu position="bottom-end" withinPortal opened={isOpened} onChange={setOpened}>
      <Menu.Target>
        <ActionIcon ref={target} variant="subtle" color="gray" aria-label={label} tabIndex={tabIndex}>
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
