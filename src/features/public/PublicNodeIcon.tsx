import { loadPublicThumbnail } from '../../public/publicProjection';
import type { NodeRecord } from '../../storage/vaultRecords';
import { NodeIconView } from '../files/NodeIcon';
import { useThumbnailObjectUrl } from '../files/thumbnailUrls';
import { usePublicVault } from './PublicVaultContext';

/**
 * The thumbnail of a public file's latest version as an object URL (SYNC_SPEC R79, R79a), or null
 * while it loads and when it has none. The icon shows meanwhile: the list never waits.
 */
export function usePublicThumbnailUrl(node: NodeRecord): string | null {
  const { state } = usePublicVault();
  const version = node.kind === 'file' && node.latestVersionId ? state.versions.get(node.latestVersionId) : undefined;
  const key = version?.thumbnail ? `public/${state.vault.vaultId}/${version.versionId}` : null;
  return useThumbnailObjectUrl(key, () => loadPublicThumbnail(state, node.id));
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
  return <NodeIconView node={node} url={usePublicThumbnailUrl(node)} size={size} thumbnailSize={thumbnailSize} />;
}
