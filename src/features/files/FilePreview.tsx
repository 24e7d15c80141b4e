import { Box, Image } from '@mantine/core';
import { useState } from 'react';
import { classifyPreview, PREVIEW_MAX_BYTES, previewBlobType } from '../../domain/filePreviewRules';
import { formatBytes } from '../../domain/formatting';
import { DecryptingPanel, NoPreviewPanel, PreviewError } from './viewer/PreviewStatus';
import { TextPreview } from './viewer/TextPreview';
import { useDecryptedBlob } from './viewer/useDecryptedBlob';
import { useObjectUrl } from './viewer/useObjectUrl';

export const NOT_AN_IMAGE_TEXT = 'No preview: the content of this file is not an image.';

interface FilePreviewProps {
  vaultId: string;
  fileId: string;
  versionId: string;
  name: string;
  mimeType: string;
  size: number;
  onDownload?: () => void;
  /** The gallery's large view: fill the stage, no text previews. */
  isStage?: boolean;
}

/**
 * A decrypted file version shown the way the browser can show it safely: images, PDF, audio and
 * video through re-typed object URLs, text and markdown as inert text (spec 000 section 4).
 */
export function FilePreview({ vaultId, fileId, versionId, name, mimeType, size, onDownload, isStage = false }: FilePreviewProps) {
  const kind = classifyPreview(mimeType, name);
  const isTooLarge = size > PREVIEW_MAX_BYTES;
  const canShow = kind !== 'none' && !isTooLarge;
  const { blob, progress, error, retry } = useDecryptedBlob(vaultId, fileId, versionId, { isEnabled: canShow, isUrgent: true });
  const isMedia = kind === 'image' || kind === 'pdf' || kind === 'audio' || kind === 'video';
  const url = useObjectUrl(isMedia ? blob : null, previewBlobType(kind, mimeType));
  // The extension decides the kind, and a rename can give a text file '.png': bytes the browser
  // cannot decode as an image say so instead of a broken picture.
  const [isUndecodable, setUndecodable] = useState(false);

  if (kind === 'none') return <NoPreviewPanel reason="No preview for this file type" onDownload={onDownload} />;
  if (isTooLarge) return <NoPreviewPanel reason={`This file is too large to preview (${formatBytes(size)}).`} onDownload={onDownload} />;
  if (error) return <PreviewError error={error} onRetry={retry} />;
  if (!blob) return <DecryptingPanel progress={progress} />;
  if (kind === 'text' || kind === 'markdown') return <TextPreview blob={blob} isMarkdown={kind === 'markdown'} />;
  if (!url) return <DecryptingPanel progress={100} />;
  if (isUndecodable) return <NoPreviewPanel reason={NOT_AN_IMAGE_TEXT} onDownload={onDownload} />;

  const mediaHeight = isStage ? '100%' : '70vh';
  switch (kind) {
    case 'image':
      return <Image src={url} alt={name} fit="contain" mah={mediaHeight} h={isStage ? '100%' : undefined} radius={isStage ? 0 : 'md'} onError={() => setUndecodable(true)} />;
    case 'video':
      return (
        <Box component="video" src={url} controls aria-label={name} w="100%" mah={mediaHeight} h={isStage ? '100%' : undefined} bg="black" style={{ display: 'block' }} />
      );
    case 'audio':
      return <Box component="audio" src={url} controls aria-label={name} w="100%" />;
    default:
      // A sandbox would stop Chromium's PDF viewer; the blob is re-typed application/pdf, so
      // the frame can only ever be the PDF viewer, never an uploader's HTML.
      return <Box component="iframe" src={url} title={name} w="100%" h="75vh" style={{ border: 0, display: 'block' }} />;
  }
}
