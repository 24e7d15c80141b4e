import { Anchor, Avatar, Badge, Box, Collapse, Group, Paper, Stack, Text } from '@mantine/core';
import { memo, useState } from 'react';
import { formatDateTime } from '../../domain/formatting';
import classes from './TimelineEntry.module.css';
import { groupSummary, type TimelineEntry, type TimelineItem, type VersionStatus } from './timelineItems';
import { describeItem, relativeTime } from './timelineText';
import { VersionStatusDot } from './VersionStatusDot';

// A row is plain markup with classes (TimelineEntry.module.css), Mantine's Avatar classes without
// its component: a fast scroll mounts a dozen rows a frame, and each Mantine component costs its
// props, styles and theme lookups. Rows that are rare (messages, terms, Pending) keep Mantine.
const AVATAR_CLASS = `${Avatar.classes.root} ${classes.avatar}`;
const AVATAR_INITIAL_CLASS = Avatar.classes.placeholder;

function initialOf(name: string): string {
  return (name.trim()[0] ?? '?').toUpperCase();
}

/** Author, what they did and to what; names render as text (never markup). */
function ItemLine({ item }: { item: TimelineItem }) {
  const { before, object, after } = describeItem(item);
  return (
    <p className={classes.text}>
      <span className={classes.strong}>{item.authorName}</span> {item.action === 'unknown' ? <span className={classes.dimmed}>{before}</span> : before}
      {object !== null && (
        <>
          {' '}
          <span className={classes.strong}>{object || 'an item'}</span>
        </>
      )}
      {after}
    </p>
  );
}

function When({ item, now }: { item: TimelineItem; now: number }) {
  return (
    <div className={classes.when}>
      {item.isPending && (
        <Badge size="xs" variant="light" color="gray">
          Pending
        </Badge>
      )}
      <span className={classes.time} title={formatDateTime(item.postedAt)}>
        {relativeTime(item.postedAt, now)}
      </span>
    </div>
  );
}

function Details({ item }: { item: TimelineItem }) {
  const [isTermsOpen, setTermsOpen] = useState(false);
  if (item.action === 'memo') {
    return (
      <Stack gap={6} mt={6}>
        {item.message !== null && (
          <Paper withBorder radius="md" px="sm" py={6} maw={440}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {item.message}
            </Text>
          </Paper>
        )}
        {item.reactions.length > 0 && (
          <Group gap={4} aria-label="Reactions">
            {item.reactions.map((r) => (
              <Badge key={r.emoji} variant={r.isMine ? 'light' : 'default'} radius="sm" aria-label={`${r.emoji} ${r.count}`}>
                {r.emoji} {r.count}
              </Badge>
            ))}
          </Group>
        )}
      </Stack>
    );
  }
  if (item.terms !== null) {
    return (
      <Box mt={4}>
        <Anchor component="button" type="button" size="xs" onClick={() => setTermsOpen((o) => !o)} aria-expanded={isTermsOpen}>
          {isTermsOpen ? 'Hide the terms of access' : 'Terms of access'}
        </Anchor>
        <Collapse expanded={isTermsOpen}>
          <Paper withBorder radius="md" px="sm" py={6} mt={4}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {item.terms}
            </Text>
          </Paper>
        </Collapse>
      </Box>
    );
  }
  return null;
}

/** A version's dot: its status from the device's storage transaction cache (R39), else the item's own. */
function statusOf(item: TimelineItem, statuses: ReadonlyMap<string, VersionStatus>): VersionStatus | null {
  return (item.versionId ? statuses.get(item.versionId) : undefined) ?? item.versionStatus;
}

/**
 * One timeline entry: an item, or a batch action's items under one line that expands to the list
 * (rendered only while open: a batch of thousands would otherwise sit hidden in every mounted row).
 * `statuses` is the vault's version statuses, read once for the whole list (useVaultVersionStatuses).
 */
export const TimelineEntryView = memo(function TimelineEntryView({
  entry,
  now,
  isHighlighted,
  statuses,
}: {
  entry: TimelineEntry;
  now: number;
  isHighlighted: boolean;
  statuses: ReadonlyMap<string, VersionStatus>;
}) {
  const [isOpen, setOpen] = useState(false);
  const first = entry.items[0]!;
  const isGroup = entry.items.length > 1;
  return (
    <div className={classes.entry} data-testid="timeline-entry" data-highlighted={isHighlighted || undefined} data-pending={first.isPending || undefined}>
      <div className={AVATAR_CLASS} data-you={first.isYou || undefined} aria-hidden>
        <div className={AVATAR_INITIAL_CLASS}>{initialOf(first.authorName)}</div>
      </div>
      <div className={classes.body}>
        <div className={classes.head}>
          <div className={classes.what}>
            {isGroup ? (
              <button type="button" className={classes.toggle} onClick={() => setOpen((o) => !o)} aria-expanded={isOpen}>
                <span className={classes.strong}>{first.authorName}</span> {groupSummary(entry.items)} <span className={classes.toggleLabel}>{isOpen ? 'Hide list' : 'Show list'}</span>
              </button>
            ) : (
              <ItemLine item={first} />
            )}
            {!isGroup && <VersionStatusDot status={statusOf(first, statuses)} />}
          </div>
          <When item={first} now={now} />
        </div>
        {isGroup ? (
          isOpen && (
            <ul className={classes.list} aria-label={groupSummary(entry.items)}>
              {entry.items.map((item) => (
                <li key={item.id} className={classes.listItem}>
                  <span className={classes.listLine}>
                    {item.name ?? 'an item'}
                    <VersionStatusDot status={statusOf(item, statuses)} />
                  </span>
                </li>
              ))}
            </ul>
          )
        ) : (
          <Details item={first} />
        )}
      </div>
    </div>
  );
});
