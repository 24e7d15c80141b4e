import { Checkbox } from '@mantine/core';
import type { NodeRecord, UploadRecord } from '../../storage/vaultRecords';

/**
 * Whether every selectable item of the folder is selected, or only some. Rows still uploading are
 * not selectable (spec 000 section 2), so they never keep 'Select all' from being checked.
 */
export function selectAllState(nodes: readonly NodeRecord[], selected: ReadonlySet<string>, uploads?: ReadonlyMap<string, UploadRecord>): { isAllSelected: boolean; isIndeterminate: boolean } {
  const itemCount = nodes.length - (uploads?.size ?? 0);
  const isAllSelected = itemCount > 0 && selected.size >= itemCount && nodes.every((n) => selected.has(n.id) || uploads?.has(n.id));
  return { isAllSelected, isIndeterminate: selected.size > 0 && !isAllSelected };
}

interface SelectAllCheckboxProps {
  isAllSelected: boolean;
  isIndeterminate: boolean;
  /** False while only the folder's first items are read: selecting all waits for the rest. */
  isComplete: boolean;
  onToggleAll: () => void;
}

/** The file list toolbar's select-all checkbox (spec 000 section 2), in the list's header and the grid's toolbar alike. */
export function SelectAllCheckbox({ isAllSelected, isIndeterminate, isComplete, onToggleAll }: SelectAllCheckboxProps) {
  return <Checkbox aria-label="Select all" checked={isAllSelected} indeterminate={isIndeterminate} disabled={!isComplete} onChange={onToggleAll} />;
}
