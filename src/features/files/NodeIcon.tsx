import type { NodeRecord } from '../../storage/vaultRecords';
import { IconFile, IconFolder } from '../../ui/icons';
import { useThumbnailUrl } from './useThumbnailUrl';

interface NodeIconProps {
  node: NodeRecord;
  /** The icon's size; a thumbnail takes `thumbnailSize` (a square, cropped to fill). */
  size: number;
  thumbnailSize?: number;
  className?: string;
}

/**
 * A file's thumbnail when its version has one (images, docs/SYNC_SPEC.md R79), else the folder or
 * file icon, which also shows while the thumbnail loads. Decorative: the name beside it says
 * what the item is.
 */
export function NodeIcon({ node, size, thumbnailSize = size, className }: NodeIconProps) {
  const url = useThumbnailUrl(node);
  if (url) {
    return (
      <img
        src={url}
        alt=""
        data-thumbnail=""
        width={thumbnailSize}
        height={thumbnailSize}
        className={className}
        style={{ objectFit: 'cover', borderRadius: 4, display: 'block' }}
        draggable={false}
      />
    );
  }
  const Icon = node.kind === 'folder' ? IconFolder : IconFile;
  return <Icon size={size} className={className} />;
}
