/** Paths of the public vault viewer (spec 001 section 2 route table). */
export type PublicView = 'assets' | 'gallery';

/** The public path of a vault's root or folder in `view`. */
export function publicFolderHref(view: PublicView, status: string, vaultId: string, folderId: string | null): string {
  const base = `/public/vaults/${encodeURIComponent(status)}/${encodeURIComponent(vaultId)}/${view}`;
  return folderId ? `${base}/folders/${encodeURIComponent(folderId)}` : base;
}
