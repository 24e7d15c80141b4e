import { Group, Pagination, Text } from '@mantine/core';
import { memo } from 'react';
import { formatRange, type RowRange } from '../../domain/listRange';

const RANGE_STYLE = { whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' } as const;

interface FileListPagerProps {
  range: RowRange | null;
  count: number;
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}

/**
 * The page controls, memoised: the range beside them changes with every scrolled frame, the page
 * only every 40 rows, and a Pagination is a dozen Mantine components to render again.
 */
const PageControls = memo(function PageControls({ page, pageCount, onPage }: Pick<FileListPagerProps, 'page' | 'pageCount' | 'onPage'>) {
  return (
    <Pagination.Root total={pageCount} value={page} onChange={onPage} size="sm" siblings={1} boundaries={1}>
      <Group gap={4} wrap="nowrap">
        <Pagination.First aria-label="First page" />
        <Pagination.Previous aria-label="Previous page" />
        <Group gap={4} wrap="nowrap" visibleFrom="sm">
          <Pagination.Items />
        </Group>
        <Pagination.Next aria-label="Next page" />
        <Pagination.Last aria-label="Last page" />
      </Group>
    </Pagination.Root>
  );
});

/**
 * The toolbar's pagination over the scrolled list (spec 000 sections 2 and 9): the rows on screen
 * ('1–14 of 10,000') and controls that jump by pages of 40 rows. Page numbers from 960 px up (below, the side navigation leaves no room);
 * first, previous, next and last at every width.
 */
export function FileListPager({ range, count, page, pageCount, onPage }: FileListPagerProps) {
  return (
    <Group gap="xs" wrap="nowrap" component="nav" aria-label="File pages">
      <Text size="sm" c="dimmed" style={RANGE_STYLE} data-testid="file-list-range">
        {formatRange(range, count)}
      </Text>
      <PageControls page={page} pageCount={pageCount} onPage={onPage} />
    </Group>
  );
}
