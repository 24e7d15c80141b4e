import { Box, Center, Image, Loader, UnstyledButton } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { classifyPreview, previewBlobType } from '../../../domain/filePreviewRules';
import type { NodeRecord } from '../../../storage/vaultRecords';
import { IconAlert, IconFile } from '../../../ui/icons';
import { useDecryptedBlob } from '../viewer/useDecryptedBlob';
import { useObjectUrl } from '../viewer/useObjectUrl';

/** Thumbnails decrypt whole images; past this a placeholder is shown instead. */
const THUMB_MAX_BYTES = 25_000_000;
export const THUMB_SIZE = 72;

interface GalleryThumbProps {
  vaultId: string;
  node: NodeRecord;
  isCurrent: boolean;
  /** Within two of the current item: decrypted ahead so moving there is instant. */
  isNear: boolean;
  onSelect: () => void;
}

/** One strip item; it decrypts only once it scrolls into view (or is near the current one). */
export function GalleryThumb({ vaultId, node, isCurrent, isNear, onSelect }: GalleryThumbProps) {
  const ref = useRef<HTMLButtonElement>(null);
  const [isVisible, setVisible] = useState(false);
  const kind = classifyPreview(node.mimeType, node.name);
  const canDecrypt = kind === 'image' && node.size <= THUMB_MAX_BYTES;

  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setVisible(entry?.isIntersecting ?? false), { rootMargin: '0px 120px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (isCurrent) ref.current?.scrollIntoView({ block: 'nearest', inline: 'center', behavior: 'smooth' });
  }, [isCurrent]);

  const { blob, error } = useDecryptedBlob(vaultId, node.id, node.latestVersionId, { isEnabled: canDecrypt && (isVisible || isNear) });
  const url = useObjectUrl(blob, previewBlobType('image', node.mimeType));

  return (
    <UnstyledButton
      ref={ref}
      onClick={onSelect}
      aria-label={node.name}
      aria-current={isCurrent ? 'true' : undefined}
      w={THUMB_SIZE}
      h={THUMB_SIZE}
      style={{
        flexShrink: 0,
        borderRadius: 'var(--mantine-radius-sm)',
        overflow: 'hidden',
        outline: isCurrent ? '3px solid var(--mantine-primary-color-filled)' : '1px solid var(--mantine-color-default-border)',
        outlineOffset: isCurrent ? -3 : -1,
        opacity: isCurrent ? 1 : 0.8,
      }}
    >
      {url ? (
        <Image src={url} alt="" w={THUMB_SIZE} h={THUMB_SIZE} fit="cover" />
      ) : (
        <Center w={THUMB_SIZE} h={THUMB_SIZE} bg="var(--mantine-color-default-hover)">
          {error ? (
            <IconAlert size={20} aria-hidden />
          ) : canDecrypt && (isVisible || isNear) ? (
            <Loader size="xs" />
          ) : (
            <Box c="dimmed">
              <IconFile size={22} />
            </Box>
          )}
        </Center>
      )}
    </UnstyledButton>
  );
}
