/**
 * The snackbar after a file, folder or note action (spec 001 section 8 lists rename, hide,
 * restore, clear, delete and move for files, folders, notes and batches without their wording;
 * spec 000 names fileMove and folderMove). Short plain wording, decided in docs/decisions.md.
 * Pure.
 */
import { isMarkdownNote } from './noteRules';

export type NodeAction = 'move' | 'hide' | 'restore' | 'rename' | 'delete' | 'clear';

const PAST: Record<NodeAction, string> = {
  move: 'moved',
  hide: 'hidden',
  restore: 'restored',
  rename: 'renamed',
  delete: 'deleted',
  clear: 'cleared',
};

interface ActedNode {
  kind: 'file' | 'folder';
  name: string;
  mimeType: string;
}

function noun(node: ActedNode): string {
  if (node.kind === 'folder') return 'Folder';
  return isMarkdownNote(node.name, node.mimeType) ? 'Note' : 'File';
}

/** 'File moved', 'Folder hidden', 'Note renamed'; a batch by its count: '3 items deleted'. */
export function nodeActionText(action: NodeAction, nodes: readonly ActedNode[]): string {
  if (nodes.length === 1) return `${noun(nodes[0]!)} ${PAST[action]}`;
  return `${nodes.length} items ${PAST[action]}`;
}

/** The action that undoes another, for the snackbar's Undo (delete and clear have none). */
export const UNDO_OF: Record<NodeAction, NodeAction | null> = {
  move: 'move',
  hide: 'restore',
  restore: 'hide',
  rename: 'rename',
  delete: null,
  clear: null,
};

/**
 * The snackbar once an action is undone: 'File moved back', 'Name restored', and for hide and
 * restore the inverse action's own text ('File restored', '2 items hidden').
 */
export function undoneText(action: NodeAction, nodes: readonly ActedNode[]): string {
  if (action === 'move') return nodes.length === 1 ? `${noun(nodes[0]!)} moved back` : `${nodes.length} items moved back`;
  if (action === 'rename') return 'Name restored';
  const inverse = UNDO_OF[action];
  return inverse ? nodeActionText(inverse, nodes) : nodeActionText(action, nodes);
}
