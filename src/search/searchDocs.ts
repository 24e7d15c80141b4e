/** Search documents (spec 000 section 3) made from the decrypted projections in Dexie. */
import type { MemoRecord, NodeRecord, VaultRecord } from '../storage/vaultRecords';
import type { SearchDoc, SearchDocType } from '../../workers/search/SearchApi';
import { nodePath, vaultRoomPath } from '../domain/navigationRules';

/** Note bodies larger than this are not fetched for indexing. */
export const NOTE_TEXT_MAX_BYTES = 1024 * 1024;

/** A vault shows up in search while it exists and the user is a member of it. */
export function isSearchableVault(vault: VaultRecord): boolean {
  return vault.status !== 'DELETED' && vault.membershipStatus === 'ACCEPTED';
}

/**
 * What decides whether a vault must be read again: its projection stamp changes with every write
 * of its nodes (src/storage/vaultProjection.ts); name and status come from the vault record.
 */
export function vaultIndexKey(vault: VaultRecord): string {
  return JSON.stringify([vault.projectionStamp ?? '', vault.status, vault.membershipStatus, vault.name]);
}

/** Markdown notes (issue 6): text/markdown, or a .md name. */
export function isNote(node: NodeRecord): boolean {
  return node.kind === 'file' && (node.mimeType === 'text/markdown' || /\.md$/i.test(node.name));
}

const DOCUMENT_TYPES = /^(text\/|application\/(pdf|msword|rtf|json|vnd\.(openxmlformats|oasis|ms-)))/;

export function nodeDocType(node: NodeRecord): SearchDocType {
  if (node.kind === 'folder') return 'FOLDER';
  if (isNote(node)) return 'NOTE';
  if (node.mimeType.startsWith('image/')) return 'STACK_IMAGE';
  if (DOCUMENT_TYPES.test(node.mimeType)) return 'STACK_DOCUMENT';
  return 'STACK';
}

export function vaultDoc(vault: VaultRecord): SearchDoc {
  return { id: vault.vaultId, type: 'DATA_ROOM', vaultId: vault.vaultId, vaultName: vault.name, name: vault.name, url: `${vaultRoomPath(vault)}/assets` };
}

export function nodeDoc(vault: VaultRecord, node: NodeRecord): SearchDoc {
  const url = nodePath(vaultRoomPath(vault), node);
  return { id: node.id, type: nodeDocType(node), vaultId: vault.vaultId, vaultName: vault.name, name: node.name, url };
}

/** The documents of one vault: the vault itself and its active (not hidden, not deleted) nodes. */
export function vaultDocs(vault: VaultRecord, nodes: NodeRecord[]): SearchDoc[] {
  const docs = vault.name ? [vaultDoc(vault)] : [];
  for (const node of nodes) if (node.status === 'ACTIVE' && node.name) docs.push(nodeDoc(vault, node));
  return docs;
}

/** Characters of a message shown as its name in results; the whole message is indexed as text. */
export const MEMO_NAME_MAX = 120;

/**
 * A chat message as a search document (type MEMO): its first line, cut short, as the name, the
 * whole message as text. Messages that could not be opened (no key) are left out.
 */
export function memoDoc(vault: VaultRecord, memo: MemoRecord): SearchDoc | null {
  if (!memo.text) return null;
  const firstLine = memo.text.trim().split('\n')[0] ?? '';
  const name = firstLine.length > MEMO_NAME_MAX ? `${firstLine.slice(0, MEMO_NAME_MAX - 1)}…` : firstLine;
  return { id: memo.memoId, type: 'MEMO', vaultId: vault.vaultId, vaultName: vault.name, name, url: `${vaultRoomPath(vault)}/chat`, text: memo.text };
}

/** Notes whose body should be (re)read: small, with a version that is not the one indexed. */
export function notesToRead(nodes: NodeRecord[], indexedVersions: Map<string, string | undefined>): NodeRecord[] {
  return nodes.filter(
    (node) =>
      node.status === 'ACTIVE' &&
      isNote(node) &&
      node.latestVersionId !== null &&
      node.size <= NOTE_TEXT_MAX_BYTES &&
      indexedVersions.get(node.id) !== node.latestVersionId,
  );
}
