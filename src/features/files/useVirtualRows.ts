import { defaultRangeExtractor, type Range, useWindowVirtualizer } from '@tanstack/react-virtual';
import { type FocusEvent, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { currentPage, firstRowOfPage, pageCountOf, visibleRows } from '../../domain/listRange';
import { ROW_HEIGHT } from './FileRow';

/** Rows rendered beyond each edge of the screen, so a fast scroll does not show blank rows. */
const OVERSCAN = 10;

/** Where the list sits on the page, read on mount and whenever a size on the page changes. */
interface Metrics {
  /** The tbody's top in document coordinates: where row 0 starts. */
  scrollMargin: number;
  toolbarHeight: number;
  /** What covers the top of the window once the toolbar and header stick: app header, toolbar, table header. */
  coveredTop: number;
  /** What covers the bottom of the window (the phone's bottom bar). */
  coveredBottom: number;
}

const SAME = (a: Metrics, b: Metrics) =>
  Math.abs(a.scrollMargin - b.scrollMargin) < 0.5 && a.toolbarHeight === b.toolbarHeight && a.coveredTop === b.coveredTop && a.coveredBottom === b.coveredBottom;

/**
 * The window-scrolled virtualizer behind FileTable, and what is built on it: the rows on screen,
 * the pager's current page and jumps, and a roving focus that reaches rows not rendered.
 */
export function useVirtualRows(options: {
  count: number;
  /** Changes only with the list: a new function makes the virtualizer recompute every row's place. */
  getKey: (index: number) => string;
  pageSize: number;
  pinnedIndex: number | null;
}) {
  const { count, getKey, pageSize, pinnedIndex } = options;
  const toolbarRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLTableSectionElement>(null);
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  /** A fixed, empty element sitting on the app's bottom bar (at the window's bottom where there is none). */
  const footerProbeRef = useRef<HTMLDivElement>(null);
  const [metrics, setMetrics] = useState<Metrics>({ scrollMargin: 0, toolbarHeight: 0, coveredTop: 0, coveredBottom: 0 });
  const [activeIndex, setActiveIndex] = useState(0);
  const [hasFocus, setHasFocus] = useState(false);
  const pendingFocus = useRef<number | null>(null);
  const active = Math.min(activeIndex, Math.max(0, count - 1));

  const focusedIndex = hasFocus ? active : null;
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      // The focused row (and a dragged one) stays rendered when scrolled away, or it would lose focus.
      const pinned = [focusedIndex, pinnedIndex].filter((i): i is number => i !== null && i < range.count && !indexes.includes(i));
      return pinned.length === 0 ? indexes : [...indexes, ...pinned].sort((a, b) => a - b);
    },
    [focusedIndex, pinnedIndex],
  );

  const virtualizer = useWindowVirtualizer({
    count,
    // Rows are measured (one with a rejection message is taller), but all others are exactly this.
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    getItemKey: getKey,
    rangeExtractor,
    scrollMargin: metrics.scrollMargin,
    scrollPaddingStart: metrics.coveredTop,
    scrollPaddingEnd: metrics.coveredBottom,
    initialRect: typeof window === 'undefined' ? undefined : { width: window.innerWidth, height: window.innerHeight },
  });

  // Where the list sits is read once mounted and then whenever a size on the page changes (a
  // ResizeObserver runs after layout, so reading positions there costs no extra layout), never
  // on every render: a forced layout of the table per scrolled frame is what makes scrolling stutter.
  useLayoutEffect(() => {
    const body = bodyRef.current;
    const toolbar = toolbarRef.current;
    if (!body || !toolbar) return;
    const measure = () => {
      const stuckAt = Number.parseFloat(getComputedStyle(toolbar).top) || 0;
      const probe = footerProbeRef.current;
      const next: Metrics = {
        scrollMargin: body.getBoundingClientRect().top + window.scrollY,
        toolbarHeight: toolbar.offsetHeight,
        coveredTop: stuckAt + toolbar.offsetHeight + (headRef.current?.offsetHeight ?? 0),
        coveredBottom: probe ? Math.max(0, Math.round(window.innerHeight - probe.getBoundingClientRect().bottom)) : 0,
      };
      setMetrics((current) => (SAME(current, next) ? current : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    // The body grows or shrinks with anything above the list; the toolbar wraps with the selection.
    for (const element of [document.body, toolbar, headRef.current]) if (element) observer.observe(element);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, []);

  useLayoutEffect(() => {
    const focusIndex = pendingFocus.current;
    if (focusIndex === null) return;
    const row = bodyRef.current?.querySelector<HTMLElement>(`tr[data-index="${focusIndex}"]`);
    if (row) {
      pendingFocus.current = null;
      row.focus({ preventScroll: true });
    }
  });

  const items = virtualizer.getVirtualItems();
  const scrollTop = virtualizer.scrollOffset ?? 0;
  const viewHeight = virtualizer.scrollRect?.height ?? 0;
  const visible = visibleRows(items, scrollTop + metrics.coveredTop, scrollTop + viewHeight - metrics.coveredBottom);
  const pageCount = pageCountOf(count, pageSize);
  const page = currentPage(visible, count, pageSize);
  // With focus outside the list, Tab enters it at a row on screen, not at one scrolled far away.
  const isActiveVisible = visible !== null && active >= visible.first && active <= visible.last;
  const tabbableIndex = hasFocus || isActiveVisible || !visible ? active : visible.first;

  const focusRow = useCallback(
    (index: number) => {
      setActiveIndex(index);
      setHasFocus(true);
      pendingFocus.current = index;
      virtualizer.scrollToIndex(index, { align: 'auto' });
    },
    [virtualizer],
  );
  const jumpToPage = useCallback(
    (target: number) => {
      const index = firstRowOfPage(target, pageSize, count);
      setActiveIndex(index);
      virtualizer.scrollToIndex(index, { align: 'start' });
    },
    [virtualizer, pageSize, count],
  );
  const onFocusRow = useCallback((index: number) => {
    setActiveIndex(index);
    setHasFocus(true);
  }, []);
  const onBlurBody = useCallback((e: FocusEvent<HTMLTableSectionElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setHasFocus(false);
  }, []);

  return {
    virtualizer,
    toolbarRef,
    headRef,
    bodyRef,
    footerProbeRef,
    toolbarHeight: metrics.toolbarHeight,
    visible,
    page,
    pageCount,
    jumpToPage,
    tabbableIndex,
    focusRow,
    onFocusRow,
    onBlurBody,
  };
}
