import { useEffect, useState } from 'react';
import { hasThumbnailSource } from '../../protocol/thumbnails';
import type { NodeRecord } from '../../storage/vaultRecords';
import { getCurrentSync } from '../../sync/currentSync';
import { loadThumbnail } from '../../sync/loadThumbnail';

/**
 * Object URLs of opened thumbnails, by account and version, for this page's life: a row scrolled
 * away and back shows its image at once. Null: the version has none (its icon is shown).
 */
const urls = new Map<string, string | null>();
const loading = new Map<string, Promise<string | null>>();
/** Rows ask as they are shown; a few at a time, so a fast scroll does not start hundreds of fetches. */
const MAX_AT_ONCE = 4;
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(task: () => Promise<T>): Promise<T> {
  if (running >= MAX_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await task();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

function load(key: string, versionId: string): Promise<string | null> {
  let pending = loading.get(key);
  if (!pending) {
    pending = limited(async () => {
      const sync = getCurrentSync();
      if (!sync?.isStarted) return undefined;
      const image = await loadThumbnail(sync.context, versionId);
      if (image === undefined) return undefined;
      return image ? URL.createObjectURL(image) : null;
    })
      .catch(() => undefined)
      .then((url) => {
        // Only a definite answer is remembered. A failure (offline, refused) or a version not on
        // the device yet (a file still uploading) is asked again when the row changes or shows again.
        loading.delete(key);
        if (url === undefined) return null;
        urls.set(key, url);
        return url;
      });
    loading.set(key, pending);
  }
  return pending;
}

/**
 * The thumbnail of a file's latest version as an object URL (docs/SYNC_SPEC.md R79), or null
 * while it loads and when it has none. Never blocks the row: the icon shows meanwhile.
 */
export function useThumbnailUrl(node: Pick<NodeRecord, 'kind' | 'latestVersionId' | 'mimeType' | 'accountId' | 'updatedAt' | 'pendingOpIds'>): string | null {
  const versionId = node.kind === 'file' && hasThumbnailSource(node.mimeType) ? node.latestVersionId : null;
  const key = versionId ? `${node.accountId}/${versionId}` : null;
  const [url, setUrl] = useState<string | null>(() => (key ? (urls.get(key) ?? null) : null));
  // A row whose upload finished or whose operation was accepted changes: ask again then.
  const revision = `${node.updatedAt}/${node.pendingOpIds.length}`;
  useEffect(() => {
    if (!key || !versionId) {
      setUrl(null);
      return;
    }
    const known = urls.get(key);
    if (known !== undefined) {
      setUrl(known);
      return;
    }
    let isCurrent = true;
    void load(key, versionId).then((loaded) => {
      if (isCurrent) setUrl(loaded);
    });
    return () => {
      isCurrent = false;
    };
  }, [key, versionId, revision]);
  return url;
}
