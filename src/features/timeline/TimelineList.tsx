import { Badge } from '@mantine/core';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useLayoutEffect, useRef, useState } from 'react';
import classes from './TimelineEntry.module.css';
import { TimelineEntryView } from './TimelineEntryView';
import type { VersionStatus } from './timelineItems';
import type { TimelineRow } from './timelineText';

/** A date row's height and a one-line entry's (px): exact, see TimelineEntry.module.css. */
export const DATE_ROW_HEIGHT = 44;
export const ENTRY_HEIGHT = 52;
/** Rows rendered beyond each edge of the window, so a fast scroll does not show blank space. */
const OVERSCAN = 10;

/**
 * A first guess at a row's height before it is measured. Exact for date rows and one-line
 * entries (nearly all of them): a wrong guess for a row above the window moves everything under
 * it when the row shows, and the virtualizer then corrects the scroll position too.
 */
function estimateRow(row: TimelineRow | undefined): number {
  if (!row || row.kind === 'date') return DATE_ROW_HEIGHT;
  const first = row.entry.items[0]!;
  if (row.entry.items.length === 1 && first.action === 'memo') return ENTRY_HEIGHT + (first.message !== null ? 40 : 0) + (first.reactions.length > 0 ? 30 : 0);
  if (row.entry.items.length === 1 && first.terms !== null) return ENTRY_HEIGHT + 20;
  return ENTRY_HEIGHT;
}

function Spacer({ height }: { height: number }) {
  return height > 0.5 ? <div aria-hidden style={{ height }} /> : null;
}

/**
 * The date badge over a day's entries. A heading, so screen reader users can jump from day to day.
 */
const DateRow = memo(function DateRow({ label }: { label: string }) {
  return (
    <div className={classes.dateRow}>
      <Badge variant="light" color="gray" radius="sm" tt="none" size="lg" fw={500} component="h2" fz="xs" m={0}>
        {label}
      </Badge>
    </div>
  );
});

/**
 * The timeline's rows as one window-scrolled virtualized list, like the folder list (FileTable):
 * only the rows on screen and a few around them are in the DOM, in normal flow between two
 * spacers, so a row that turns out taller than its estimate moves the rows under it by layout,
 * not by a re-render of every row's position. The virtualizer re-renders this component on each
 * scrolled frame, so it is kept apart from the page (its toolbar, drawer and counts) and its
 * mounted rows are memoised: a frame renders only the rows that come into view.
 */
export const TimelineList = memo(function TimelineList({
  rows,
  now,
  fresh,
  statuses,
  isBusy,
}: {
  rows: readonly TimelineRow[];
  now: number;
  /** Item ids that just arrived, highlighted. */
  fresh: ReadonlySet<string>;
  statuses: ReadonlyMap<string, VersionStatus>;
  isBusy: boolean;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // Where the list starts on the page, read on mount and whenever a size on the page changes (a
  // ResizeObserver runs after layout, so this costs no layout of its own), never per frame.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const measure = () => setScrollMargin(Math.round(list.getBoundingClientRect().top + window.scrollY));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  // Both change only with the rows: a new function makes the virtualizer recompute every row's place.
  const getItemKey = useCallback((index: number) => rows[index]!.key, [rows]);
  const estimateSize = useCallback((index: number) => estimateRow(rows[index]), [rows]);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize,
    overscan: OVERSCAN,
    scrollMargin,
    getItemKey,
    initialRect: typeof window === 'undefined' ? undefined : { width: window.innerWidth, height: window.innerHeight },
  });

  const items = virtualizer.getVirtualItems();
  const top = (items[0]?.start ?? scrollMargin) - scrollMargin;
  const bottom = virtualizer.getTotalSize() - ((items.at(-1)?.end ?? scrollMargin) - scrollMargin);
  return (
    <div ref={listRef} role="feed" aria-label="Vault activity" aria-busy={isBusy}>
      <Spacer height={top} />
      {items.map((virtual) => {
        const row = rows[virtual.index]!;
        return (
          <div key={virtual.key} data-index={virtual.index} ref={virtualizer.measureElement} role={row.kind === 'entry' ? 'article' : undefined}>
            {row.kind === 'date' ? (
              <DateRow label={row.label} />
            ) : (
              <TimelineEntryView entry={row.entry} now={now} isHighlighted={fresh.size > 0 && row.entry.items.some((i) => fresh.has(i.id))} statuses={statuses} />
            )}
          </div>
        );
      })}
      <Spacer height={bottom} />
    </div>
  );
});
