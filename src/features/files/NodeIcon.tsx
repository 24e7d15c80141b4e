import type { NodeRecord } from '../../storage/vaultRecords';
import { IconFile, IconFolder } from '../../ui/icons';
import { useThumbnailUrl } from './useThumbnailUrl';

interface NodeIconProps {
  node: Pick<NodeRecord, 'kind' | 'mimeType' | 'latestVersionId' | 'accountId' | 'updatedAt' | 'pendingOpIds'>;
  /** The icon's size; a thumbnail takes `thumbnailSize` (a square, cropped to fill). */
  size: number;
  thumbnailSize?: number;
  className?: string;
}

/**
 * A file's thumbnail when its version has one (images and PDFs, docs/SYNC_SPEC.md R79, R79a), else the folder or
 * file icon, which also shows while the thumbnail loads. Decorative: the name beside it says
 * what the item is.
 */
export function NodeIcon(props: NodeIconProps) {
  return <NodeIconView {...props} url={useThumbnailUrl(props.node)} />;
}

/** NodeIcon with the thumbnail's object URL given (null: the icon); the signed-out viewer fetches its own. */
export function NodeIconView({ node, url, size, thumbnailSize = size, className }: NodeIconProps & { url: string | null }) {
  const isPdf = node.kind === 'file' && node.mimeType.toLowerCase() === 'application/pdf';
  if (url) {
    return (
      <img
        src={url}
        alt=""
        data-thumbnail=""
        width={thumbnailSize}
        height={thumbnailSize}
        className={className}
        // A page is cropped from its top, where its title is; an image from its middle.
        style={{ objectFit: 'cover', objectPosition: isPdf ? 'top' : 'center', borderRadius: 4, display: 'block', flexShrink: 0 }}
        draggable={false}
      />
    );
  }
  if (isPdf) return <PdfIcon size={size} className={className} />;
  const Icon = node.kind === 'folder' ? IconFolder : IconFile;
  return <Icon size={size} className={className} />;
}

/**
 * A PDF without a thumbnail (uploaded before R79a, or one pdfjs could not draw): a document icon
 * marked PDF, in red as readers know it, tells them apart from other files at a glance.
 */
function PdfIcon({ size, className }: { size: number; className?: string }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden className={className} data-pdf-icon="">
      <path d="M14 3v4a1 1 0 0 0 1 1h4" />
      <path d="M17 21H7a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h7l5 5v11a2 2 0 0 1-2 2z" />
      <rect x="3" y="12" width="14" height="7" rx="1" fill="var(--mantine-color-red-7)" stroke="none" />
      <text x="10" y="17.6" textAnchor="middle" fontSize="5.6" fontWeight="700" fill="#fff" stroke="none" fontFamily="sans-serif">
        PDF
      </text>
    </svg>
  );
}
