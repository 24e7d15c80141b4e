import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { UploadRecord } from '../../../storage/vaultRecords';
import { UploadProgressRow } from './UploadProgressRow';

/** Height of one line of the box's list (an xs text line and its cancel button). */
const ROW_HEIGHT = 22;
/** The list shows about five lines and scrolls for more. */
const LIST_MAX_HEIGHT = 120;

/**
 * The upload box's list of files, virtualized: a pick of a thousand files renders the lines in
 * view, not a thousand of them each time the progress changes.
 */
export function UploadRows({ uploads, onCancel }: { uploads: readonly UploadRecord[]; onCancel: (upload: UploadRecord) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: uploads.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => uploads[index]!.uploadId,
    overscan: 6,
    // The first render, before the list is measured: its lines at the top of the list.
    initialRect: { width: 0, height: LIST_MAX_HEIGHT },
  });
  return (
    <div ref={scroller} aria-label="Uploads" style={{ maxHeight: LIST_MAX_HEIGHT, overflowY: 'auto', overscrollBehavior: 'contain' }}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div key={item.key} style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}>
            <UploadProgressRow upload={uploads[item.index]!} onCancel={onCancel} />
          </div>
        ))}
      </div>
    </div>
  );
}
