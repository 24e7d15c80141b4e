import { Group, ScrollArea } from '@mantine/core';
import { useState } from 'react';
import { galleryWindowRange, shiftGalleryWindow } from '../../../domain/galleryWindow';
import type { NodeRecord } from '../../../storage/vaultRecords';
import { GalleryThumb } from './GalleryThumb';

interface GalleryStripProps {
  vaultId: string;
  items: readonly NodeRecord[];
  current: number;
  onSelect: (index: number) => void;
}

/** A window of 50 thumbnails that shifts by 5 at either edge (spec 000 section 9). */
export function GalleryStrip({ vaultId, items, current, onSelect }: GalleryStripProps) {
  const [start, setStart] = useState(0);
  const next = shiftGalleryWindow(start, current, items.length);
  // Adjusting state while rendering (React's documented pattern) avoids a frame with a stale window.
  if (next !== start) setStart(next);
  const range = galleryWindowRange(next, items.length);

  return (
    <ScrollArea type="auto" scrollbarSize={6} offsetScrollbars="x" aria-label="Thumbnails">
      <Group gap={6} wrap="nowrap" p={4} component="ul" style={{ listStyle: 'none', margin: 0 }}>
        {items.slice(range.start, range.end).map((node, offset) => {
          const index = range.start + offset;
          return (
            <li key={node.id}>
              <GalleryThumb vaultId={vaultId} node={node} isCurrent={index === current} isNear={Math.abs(index - current) <= 2} onSelect={() => onSelect(index)} />
            </li>
          );
        })}
      </Group>
    </ScrollArea>
  );
}
