import { CheckIcon, Checkbox, Table } from '@mantine/core';
import { type DragEvent, type MouseEvent, type ReactNode, memo } from 'react';
import { formatBytes, formatDate, formatFileType } from '../../domain/formatting';
import type { NodeRecord, UploadRecord } from '../../storage/vaultRecords';
import classes from './FileRow.module.css';
import { FileRowMenu, type RowAction } from './FileRowMenu';
import { NodeName } from './NodeName';

/** Every row's height (px) unless its content needs more (a rejection message); see FileTable. */
export const ROW_HEIGHT = 52;

/** What a row reports to the table; stable callbacks, so that scrolling re-renders no mounted row. */
export interface FileRowHandlers {
  onToggle: (id: string, isShift: boolean) => void;
  onOpen: (node: NodeRecord) => void;
  renderLink: (node: NodeRecord) => ((props: Record<string, unknown>) => ReactNode) | undefined;
  rowActions: (node: NodeRecord) => RowAction[];
  deleteLabel?: string;
  onAction: (action: RowAction, node: NodeRecord) => void;
  onFocusRow: (index: number) => void;
  /** Present when rows can be dragged onto folder rows. */
  drag?: {
    onDragStart: (node: NodeRecord, e: DragEvent<HTMLTableRowElement>) => void;
    onDragEnd: () => void;
    onDragOver: (node: NodeRecord, e: DragEvent<HTMLTableRowElement>) => void;
    onDragLeave: (node: NodeRecord, e: DragEvent<HTMLTableRowElement>) => void;
    onDrop: (node: NodeRecord, e: DragEvent<HTMLTableRowElement>) => void;
  };
}

interface FileRowProps extends FileRowHandlers {
  node: NodeRecord;
  /** A new file still uploading: the row shows its upload state and offers nothing to do yet. */
  upload?: UploadRecord;
  index: number;
  isSelected: boolean;
  isDropTarget: boolean;
  /** The list's one tab stop: this row and its controls are in the tab order, no other row's are. */
  isTabbable: boolean;
  rowRef?: (element: HTMLTableRowElement | null) => void;
}

// The row is plain table markup carrying Mantine's Table classes, not Table.Tr and Table.Td:
// scrolling fast mounts a dozen rows a frame, and each Mantine component costs its props,
// styles and theme lookups. Styles are classes (FileRow.module.css), not inline.
const TR_CLASS = `${Table.classes.tr} ${classes.row}`;
const TD_CLASS = `${Table.classes.td} ${classes.cell}`;
const TD_SM = `${TD_CLASS} mantine-visible-from-sm`;
const TD_XS = `${TD_CLASS} ${classes.truncated} mantine-visible-from-xs`;

// Mantine's Checkbox markup and classes without its components (it is four of them per row).
const CHECKBOX_INPUT_CLASS = `mantine-focus-auto ${Checkbox.classes.input}`;

function RowCheckbox({ label, isChecked, tabIndex, onClick }: { label: string; isChecked: boolean; tabIndex?: number; onClick: (e: MouseEvent<HTMLInputElement>) => void }) {
  return (
    <div className={classes.checkbox}>
      <div className={Checkbox.classes.inner}>
        <input className={CHECKBOX_INPUT_CLASS} type="checkbox" aria-label={label} checked={isChecked} tabIndex={tabIndex} onChange={() => undefined} onClick={onClick} />
        {/* Only a checked box shows its mark; an unchecked row is two elements lighter to mount. */}
        {isChecked && <CheckIcon className={Checkbox.classes.icon} />}
      </div>
    </div>
  );
}

/** One file or folder row of FileTable, or the row of a new file still uploading (`upload`). */
export const FileRow = memo(function FileRow(props: FileRowProps) {
  const { node, upload, index, isSelected, isDropTarget, isTabbable, rowRef, onToggle, onOpen, renderLink, rowActions, deleteLabel, onAction, onFocusRow, drag } = props;
  const actions = upload ? [] : rowActions(node);
  const controlTabIndex = isTabbable ? undefined : -1;
  const dragProps = drag && !upload && {
    draggable: true,
    onDragStart: (e: DragEvent<HTMLTableRowElement>) => drag.onDragStart(node, e),
    onDragEnd: drag.onDragEnd,
    ...(node.kind === 'folder' && {
      onDragOver: (e: DragEvent<HTMLTableRowElement>) => drag.onDragOver(node, e),
      onDragLeave: (e: DragEvent<HTMLTableRowElement>) => drag.onDragLeave(node, e),
      onDrop: (e: DragEvent<HTMLTableRowElement>) => drag.onDrop(node, e),
    }),
  };

  return (
    <tr
      ref={rowRef}
      className={TR_CLASS}
      data-hover
      data-index={index}
      aria-rowindex={index + 2}
      tabIndex={isTabbable ? 0 : -1}
      data-selected={isSelected || undefined}
      data-drop-target={isDropTarget || undefined}
      data-testid={upload ? 'pending-upload' : undefined}
      onFocus={() => onFocusRow(index)}
      onDoubleClick={upload ? undefined : () => onOpen(node)}
      {...dragProps}
    >
      <td className={TD_CLASS}>
        {!upload && <RowCheckbox label={`Select ${node.name}`} isChecked={isSelected} tabIndex={controlTabIndex} onClick={(e) => onToggle(node.id, e.shiftKey)} />}
      </td>
      <td className={TD_CLASS}>
        {upload ? <NodeName node={node} upload={upload} /> : <NodeName node={node} renderLink={renderLink(node)} tabIndex={controlTabIndex} />}
      </td>
      <td className={TD_SM}>
        {formatDate(node.updatedAt)}
      </td>
      <td className={TD_XS}>
        {formatBytes(node.size)}
      </td>
      <td className={TD_SM}>
        {node.kind === 'file' ? node.versionCount : ''}
      </td>
      <td className={TD_XS}>
        {node.kind === 'folder' ? 'Folder' : formatFileType(node.mimeType, node.name)}
      </td>
      <td className={TD_CLASS}>
        {actions.length > 0 && <FileRowMenu node={node} actions={actions} deleteLabel={deleteLabel} onAction={onAction} tabIndex={controlTabIndex} />}
      </td>
    </tr>
  );
});
