import { useEffect, useState } from 'react';

/**
 * Object URLs of opened thumbnails, by key (account or vault, and version), for this page's life:
 * a version never changes, so a row scrolled or filtered away and back shows its image at once.
 * Null: the version has none (its icon is shown). Shared by the members' list and the signed-out
 * viewer, which only differ in how a thumbnail is fetched.
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

/**
 * `fetchImage` answers the image, null when the version has none, or undefined when it cannot
 * tell yet (offline, refused, the version not on the device): only a definite answer is kept, the
 * rest is asked again when the row changes or shows again. A failure counts as undefined.
 */
function load(key: string, fetchImage: () => Promise<Blob | null | undefined>): Promise<string | null> {
  let pending = loading.get(key);
  if (!pending) {
    pending = limited(fetchImage)
      .catch(() => undefined)
      .then((image) => {
        loading.delete(key);
        if (image === undefined) return null;
        const url = image ? URL.createObjectURL(image) : null;
        urls.set(key, url);
        return url;
      });
    loading.set(key, pending);
  }
  return pending;
}

/**
 * The object URL of the thumbnail `key` names, or null while it loads and when there is none.
 * Never blocks the row: its icon shows meanwhile. `revision` asks again when it changes.
 */
export function useThumbnailObjectUrl(key: string | null, fetchImage: () => Promise<Blob | null | undefined>, revision = ''): string | null {
  const [url, setUrl] = useState<string | null>(() => (key ? (urls.get(key) ?? null) : null));
  useEffect(() => {
    if (!key) {
      setUrl(null);
      return;
    }
    const known = urls.get(key);
    if (known !== undefined) {
      setUrl(known);
      return;
    }
    let isCurrent = true;
    void load(key, fetchImage).then((loaded) => {
      if (isCurrent) setUrl(loaded);
    });
    return () => {
      isCurrent = false;
    };
    // `fetchImage` is a new closure each render; the key and the revision say when to ask again.
  }, [key, revision]);
  return url;
}
