import { ActionIcon, Button, Center, Group, Indicator, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { useLocation } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useUser } from '../account/useSession';
import { useVaultRoom } from '../files/VaultRoomContext';
import { VaultRoomToolbar } from '../files/VaultRoomToolbar';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconFilter } from '../../ui/icons';
import { useVault } from '../../storage/vaultStore';
import { countActiveFilters, filterItems, NO_FILTERS, type TimelineFilters } from './timelineFilters';
import { groupItems } from './timelineItems';
import { useTimeline } from './timelineSource';
import { TimelineFilterDrawer } from './TimelineFilterDrawer';
import { TimelineList } from './TimelineList';
import { withDateBadges } from './timelineText';
import { useVaultVersionStatuses } from './VersionStatusDot';

/** Entries per page, then 'Load more activity...' (spec 000 section 9). */
export const TIMELINE_PAGE_SIZE = 25;
/** How long a new item stays highlighted (spec 000 section 2, Timeline). */
const HIGHLIGHT_MS = 1_000;

function IconHistory({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" strokeLinejoin="round" aria-hidden>
      <path d="M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l3 3" />
    </svg>
  );
}

/** The current time, refreshed every minute so relative times and date badges move on. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** Ids that arrived after the first render, each for HIGHLIGHT_MS. */
function useArrivals(ids: readonly string[] | undefined): ReadonlySet<string> {
  const known = useRef<Set<string> | null>(null);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    if (!ids) return;
    if (!known.current) {
      known.current = new Set(ids);
      return;
    }
    const added = ids.filter((id) => !known.current!.has(id));
    if (added.length === 0) return;
    for (const id of added) known.current.add(id);
    setFresh(new Set(added));
    const timer = window.setTimeout(() => setFresh(new Set()), HIGHLIGHT_MS);
    return () => window.clearTimeout(timer);
  }, [ids]);
  return fresh;
}

/** .../timeline: the vault's activity, newest first (spec 000 section 2, Timeline; SYNC_SPEC R28-R29). */
export function TimelinePage() {
  const { vault } = useVaultRoom();
  const user = useUser();
  const items = useTimeline(vault.vaultId, user.publicSigningKey, vault.role);
  const now = useNow();
  const location = useLocation();
  const { pathname } = location;
  const [filters, setFilters] = useState<TimelineFilters>(NO_FILTERS);
  const [isFilterOpen, setFilterOpen] = useState(() => location.state.openFilters === true);
  const [pages, setPages] = useState(1);

  // Filters and paging reset when the path changes (spec 000 section 2, Vault room).
  useEffect(() => {
    setFilters(NO_FILTERS);
    setPages(1);
  }, [pathname]);

  // The clock matters to the filter only with a Period: without one, the minute tick re-filters nothing.
  const filterNow = filters.period ? now : 0;
  const filtered = useMemo(() => (items ? filterItems(items, filters, filterNow) : undefined), [items, filters, filterNow]);
  const entries = useMemo(() => (filtered ? groupItems(filtered) : []), [filtered]);
  const shownEntries = useMemo(() => entries.slice(0, pages * TIMELINE_PAGE_SIZE), [entries, pages]);
  const rows = useMemo(() => withDateBadges(shownEntries, now), [shownEntries, now]);
  const ids = useMemo(() => items?.map((i) => i.id), [items]);
  const fresh = useArrivals(ids);
  const statuses = useVaultVersionStatuses(vault.vaultId);

  const authors = useMemo(() => {
    const seen = new Map<string, string>();
    for (const item of items ?? []) if (!seen.has(item.authorKey)) seen.set(item.authorKey, item.authorName);
    return [...seen].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
  }, [items]);

  const activeFilters = countActiveFilters(filters);
  // The room's record keeps its sync position as it was (VaultRoomLayout): read the live one.
  const position = useVault(vault.vaultId);
  const isDecrypting = items === undefined || !position || position.cursor < position.headSeq;
  const filterToggle = (
    <Tooltip label="Filter the timeline">
      <Indicator disabled={activeFilters === 0} label={activeFilters} size={16} offset={4}>
        <ActionIcon variant={isFilterOpen ? 'light' : 'subtle'} color="gray" size="lg" aria-label="Filter the timeline" aria-pressed={isFilterOpen} onClick={() => setFilterOpen((o) => !o)}>
          <IconFilter />
        </ActionIcon>
      </Indicator>
    </Tooltip>
  );

  return (
    <>
      <VaultRoomToolbar path={[]} actions={filterToggle} />
      <Group justify="space-between" mb="xs" mih={24}>
        <Text size="sm" c="dimmed">
          {filtered ? `${filtered.length.toLocaleString('en-US')} ${filtered.length === 1 ? 'action' : 'actions'}${activeFilters > 0 ? ' match the filters' : ''}` : ''}
        </Text>
        {isDecrypting && (
          <Group gap={6} role="status">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              Decripting
            </Text>
          </Group>
        )}
      </Group>
      {items === undefined ? (
        <Center py="xl">
          <Loader aria-label="Decripting" />
        </Center>
      ) : entries.length === 0 ? (
        <EmptyPanel
          icon={<IconHistory />}
          title={activeFilters > 0 ? 'No activity matches the filters' : 'No activity yet'}
          description={activeFilters > 0 ? 'Try fewer filters or a longer period.' : 'Uploads, folders, renames and member changes in this vault show here.'}
          actions={
            activeFilters > 0 && (
              <Button variant="light" onClick={() => setFilters(NO_FILTERS)}>
                Clear filters
              </Button>
            )
          }
        />
      ) : (
        <Stack gap="md">
          <TimelineList rows={rows} now={now} fresh={fresh} statuses={statuses} isBusy={isDecrypting} />
          {entries.length > shownEntries.length && (
            <Center>
              <Button variant="light" onClick={() => setPages((p) => p + 1)}>
                Load more activity...
              </Button>
            </Center>
          )}
        </Stack>
      )}
      <TimelineFilterDrawer
        opened={isFilterOpen}
        onClose={() => setFilterOpen(false)}
        filters={filters}
        onChange={(next) => {
          setFilters(next);
          setPages(1);
        }}
        members={authors}
      />
    </>
  );
}
