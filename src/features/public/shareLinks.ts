/**
 * 'Share' (spec 000 section 6: public vaults only): copies the public link of a vault, or of a
 * file (its folder in the public viewer with the file open), and says so.
 */
import { showErrorSnackbar, showSnackbar } from '../../ui/snackbar';
import { publicFolderHref } from './publicHref';

export const LINK_COPIED_TEXT = 'Public link copied to the clipboard.';

/** The public viewer link of `vaultId` (/public/vaults/active/{vaultId}/assets), absolute. */
export function publicVaultLink(vaultId: string, origin: string = window.location.origin): string {
  return `${origin}${publicFolderHref('assets', 'active', vaultId, null)}`;
}

/** The public link of one file: its folder in the viewer, with the file's viewer open. */
export function publicFileLink(vaultId: string, file: { id: string; parentId: string | null }, origin: string = window.location.origin): string {
  return `${origin}${publicFolderHref('assets', 'active', vaultId, file.parentId)}?file=${encodeURIComponent(file.id)}`;
}

export async function copyPublicLink(link: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(link);
    showSnackbar(LINK_COPIED_TEXT);
  } catch {
    showErrorSnackbar(`The link could not be copied: ${link}`);
  }
}
