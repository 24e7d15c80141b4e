import { useEffect, useState } from 'react';
import { loadPublicThumbnail } from '../../public/publicProjection';
import type { VaultState } from '../../storage/vaultProjection';
import type { NodeRecord } from '../../storage/vaultRecords';
import { IconFile, IconFolder } from '../../ui/icons';
import { usePublicVault } from './PublicVaultContext';

/**
 * Object URLs of public thumbnails by vault and version, for this page's life (a version never
 * changes): a row filtered away and back shows its image at once. Null: none to show (its icon).
 */
const urls = new Map<string, string | null>();
const loading = new Map<string, Promise<string | null>>();
/** Rows ask as they are rendered; a few at a time, so a large folder does not start hundreds of fetches at once. */
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

function load(state: VaultState, fileId: string, key: string): Promise<string | null> {
  let pending = loading.get(key);
  if (!pending) {
    pending = limited(() => loadPublicThumbnail(state, fileId)).then(
      (image) => {
        const url = image ? URL.createObjectURL(image) : null;
        urls.set(key, url);
        return url;
      },
      // Refused or tampered (the file was hidden meanwhile, the network failed): the icon, asked again on the next visit.
      () => null,
    );
    pending.finally(() => loading.delete(key)).catch(() => undefined);
    loading.set(key, pending);
  }
  return pending;
}

/**
 * The thumbnail of a public file's latest version as an object URL (SYNC_SPEC R79, R79a), or null
 * while it loads and when it has none. The icon shows meanwhile: the list never waits.
 */
export function usePublicThumbnailUrl(node: NodeRecord): string | null {
  const { state } = usePublicVault();
  const version = node.kind === 'file' && node.latestVersionId ? state.versions.get(node.latestVersionId) : undefined;
  const key = version?.thumbnail ? `${state.vault.vaultId}/${version.versionId}` : null;
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
    void load(state, node.id, key).then((loaded) => {
      if (isCurrent) setUrl(loaded);
    });
    return () => {
      isCurrent = false;
    };
  }, [state, node.id, key]);
  return url;
}

interface PublicNodeIconProps {
  node: NodeRecord;
  /** The icon's size; a thumbnail takes `thumbnailSize` (a square, cropped to fill). */
  size: number;
  thumbnailSize?: number;
}

/**
 * A public file's thumbnail when its version has one, else the folder or file icon, as the
 * members' list shows it (NodeIcon). Decorative: the name beside it says what the item is.
 */
export function PublicNodeIcon({ node, size, thumbnailSize = size }: PublicNodeIconProps) {
  const url = usePublicThumbnailUrl(node);
  if (url) {
    const isPdf = node.mimeType.toLowerCase() === 'application/pdf';
    return (
      <img
        src={url}
        alt=""
        data-thumbnail=""
        width={thumbnailSize}
        height={thumbnailSize}
        // A page is cropped from its top, where its title is; an image from its middle.
        style={{ objectFit: 'cover', objectPosition: isPdf ? 'top' : 'center', borderRadius: 4, display: 'block', flexShrink: 0 }}
        draggable={false}
      />
    );
  }
  const Icon = node.kind === 'folder' ? IconFolder : IconFile;
  return <Icon size={size} aria-hidden />;
}
