import { useMemo } from 'react';
import { classifyPreview, isGalleryKind } from '../../../domain/filePreviewRules';
import type { NodeRecord } from '../../../storage/vaultRecords';
import { useChildren } from '../../../storage/vaultStore';

/** The folder's images and videos with a version to show, in name order; undefined while loading. */
export function useGalleryItems(vaultId: string, folderId: string | null): NodeRecord[] | undefined {
  // Children arrive folders first, then files by name (getChildren), so the files keep that order.
  const children = useChildren(vaultId, folderId);
  return useMemo(
    () => children?.filter((n) => n.kind === 'file' && n.latestVersionId !== null && isGalleryKind(classifyPreview(n.mimeType, n.name))),
    [children],
  );
}
