/**
 * What a saved link to a file or a note shows (SYNC_SPEC R70, R71), from the device's own record
 * of it. A link outlives what it names: the file may be fetched later (a new device), moved to
 * another vault's link by hand, hidden, or deleted for good.
 */
import type { NodeStatus } from '../protocol/vaults';

export interface LinkedNode {
  kind: 'folder' | 'file';
  vaultId: string;
  status: NodeStatus;
}

export type LinkTargetView =
  /** Not on the device yet: fetching, until the server says whether it exists (R70). */
  | 'pending'
  /** Deleted for good: its name and size stay on the device, its content is gone (R71). */
  | 'deleted'
  /** A folder, or an item of another vault: the vault's files instead. */
  | 'elsewhere'
  | 'file';

/** `node` undefined: the device does not hold it (or is still reading it). */
export function linkTargetView(node: LinkedNode | undefined, vaultId: string): LinkTargetView {
  if (node === undefined) return 'pending';
  if (node.kind !== 'file' || node.vaultId !== vaultId) return 'elsewhere';
  if (node.status === 'DELETED') return 'deleted';
  return 'file';
}

/** R71: what the page of a file deleted for good says instead of its preview and Download. */
export const FILE_DELETED_TITLE = 'This file was deleted';
export const FILE_DELETED_TEXT = 'It was deleted from this vault for good: it can no longer be opened or downloaded.';
