import { hasThumbnailSource } from '../../protocol/thumbnails';
import type { NodeRecord } from '../../storage/vaultRecords';
import { getCurrentSync } from '../../sync/currentSync';
import { loadThumbnail } from '../../sync/loadThumbnail';
import { useThumbnailObjectUrl } from './thumbnailUrls';

/**
 * The thumbnail of a file's latest version as an object URL (docs/SYNC_SPEC.md R79), or null
 * while it loads and when it has none. Never blocks the row: the icon shows meanwhile.
 */
export function useThumbnailUrl(node: Pick<NodeRecord, 'kind' | 'latestVersionId' | 'mimeType' | 'accountId' | 'updatedAt' | 'pendingOpIds'>): string | null {
  const versionId = node.kind === 'file' && hasThumbnailSource(node.mimeType) ? node.latestVersionId : null;
  const key = versionId ? `${node.accountId}/${versionId}` : null;
  // A row whose upload finished or whose operation was accepted changes: ask again then.
  const revision = `${node.updatedAt}/${node.pendingOpIds.length}`;
  return useThumbnailObjectUrl(
    key,
    async () => {
      const sync = getCurrentSync();
      if (!sync?.isStarted || !versionId) return undefined;
      return loadThumbnail(sync.context, versionId);
    },
    revision,
  );
}
