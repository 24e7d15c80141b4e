/**
 * 'Add new version' (spec 000 section 6): shown only for files that are not notes (a note gets
 * new versions by saving it in the editor) and blocked for manifest.json, whose versions come only
 * from Generate JSON metadata, so its content stays a manifest of the vault.
 */
import { MANIFEST_FILE_NAME } from './arweaveManifest';
import { isMarkdownNote } from './noteRules';

export function canAddVersion(node: { kind: 'file' | 'folder'; name: string; mimeType: string; status: string }): boolean {
  return node.kind === 'file' && node.status === 'ACTIVE' && node.name !== MANIFEST_FILE_NAME && !isMarkdownNote(node.name, node.mimeType);
}
