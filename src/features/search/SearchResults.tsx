import { ActionIcon, Anchor, Group, Menu, Pagination, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { SearchDocType, SearchHit } from '../../../workers/search/SearchApi';
import { useSearchResults } from '../../search';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconDots, IconFile, IconFolder, IconSearch, IconVaults } from '../../ui/icons';

/** Spec 000 section 9: search 20 per page. */
export const SEARCH_PAGE_SIZE = 20;

/** Spec 000 section 2, verbatim. */
export const NO_RESULTS_TEXT = 'Sorry, there were no search results.';

export function resultCountText(total: number): string {
  return total === 1 ? '1 result' : `${total.toLocaleString('en-US')} results`;
}

/** Each type's one action (spec 000 section 2: a per-type actions menu, none for messages). */
const ACTION_LABEL: Record<SearchDocType, string | null> = {
  DATA_ROOM: 'Open vault',
  FOLDER: 'Open folder',
  NOTE: 'Open note',
  STACK: 'Open file',
  STACK_DOCUMENT: 'Open file',
  STACK_IMAGE: 'Open file',
  MEMO: null,
};

const TYPE_LABEL: Record<SearchDocType, string> = {
  DATA_ROOM: 'Vault',
  FOLDER: 'Folder',
  NOTE: 'Note',
  STACK: 'File',
  STACK_DOCUMENT: 'Document',
  STACK_IMAGE: 'Image',
  MEMO: 'Message',
};

function svg(children: React.ReactNode) {
  return (
    <svg width={20} height={20} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" strokeLinejoin="round" aria-hidden focusable="false">
      {children}
    </svg>
  );
}

function TypeIcon({ type }: { type: SearchDocType }) {
  switch (type) {
    case 'DATA_ROOM':
      return <IconVaults size={20} />;
    case 'FOLDER':
      return <IconFolder size={20} />;
    case 'NOTE':
      return svg(
        <>
          <path d="M17 21H7a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h7l5 5v11a2 2 0 0 1-2 2z" />
          <path d="M9 12h6M9 16h4" />
        </>,
      );
    case 'STACK_IMAGE':
      return svg(
        <>
          <rect x="3" y="5" width="18" height="14" rx="2" />
          <circle cx="9" cy="10" r="1.5" />
          <path d="m21 16-5-5-8 8" />
        </>,
      );
    case 'MEMO':
      return svg(<path d="M4 5h16v11H9l-5 4z" />);
    default:
      return <IconFile size={20} />;
  }
}

function ResultRow({ hit }: { hit: SearchHit }) {
  const navigate = useNavigate();
  const action = ACTION_LABEL[hit.type];
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="sm" wrap="nowrap">
          <Text c="dimmed" component="span" style={{ display: 'inline-flex' }} title={TYPE_LABEL[hit.type]}>
            <TypeIcon type={hit.type} />
          </Text>
          <Stack gap={0} miw={0}>
            <Anchor renderRoot={(props) => <Link to={hit.url} {...props} />} fw={600} c="var(--mantine-color-text)" truncate>
              {hit.name}
            </Anchor>
            <Text size="xs" c="dimmed" truncate>
              {TYPE_LABEL[hit.type]}
              {hit.type !== 'DATA_ROOM' && ` in ${hit.vaultName}`}
            </Text>
          </Stack>
        </Group>
      </Table.Td>
      <Table.Td>
        {action && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${hit.name}`}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => void navigate({ to: hit.url })}>{action}</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

interface SearchResultsProps {
  term: string;
}

/** The results table of `term`, 20 a page, straight from the on-device index (works offline). */
export function SearchResults({ term }: SearchResultsProps) {
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [term]);
  const results = useSearchResults(term, (page - 1) * SEARCH_PAGE_SIZE, SEARCH_PAGE_SIZE);

  if (!results) return <Skeleton h={120} radius="md" />;
  if (results.total === 0) {
    return (
      <EmptyPanel
        icon={<IconSearch size={28} />}
        title={NO_RESULTS_TEXT}
        description={<Text inherit>Nothing in your vaults matches “{term}”. Try fewer letters or another word.</Text>}
      />
    );
  }
  const pageCount = Math.ceil(results.total / SEARCH_PAGE_SIZE);
  return (
    <Stack gap="md">
      <Table highlightOnHover verticalSpacing="sm" layout="fixed" aria-label="Search results">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th w={52}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {results.hits.map((hit) => (
            <ResultRow key={hit.id} hit={hit} />
          ))}
        </Table.Tbody>
      </Table>
      {pageCount > 1 && (
        <Group justify="center">
          <Pagination total={pageCount} value={page} onChange={setPage} size="sm" aria-label="Result pages" />
        </Group>
      )}
    </Stack>
  );
}
