import { Anchor, Avatar, Badge, Box, Collapse, Group, List, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { memo, useState } from 'react';
import { formatDateTime } from '../../domain/formatting';
import { groupSummary, type TimelineEntry, type TimelineItem } from './timelineItems';
import { describeItem, relativeTime } from './timelineText';
import { StoredVersionStatusDot } from './VersionStatusDot';

function initialOf(name: string): string {
  return (name.trim()[0] ?? '?').toUpperCase();
}

/** Author, what they did and to what; names render as text (never markup). */
function ItemLine({ item }: { item: TimelineItem }) {
  const { before, object, after } = describeItem(item);
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span fw={600}>
        {item.authorName}
      </Text>{' '}
      {item.action === 'unknown' ? <Text span c="dimmed">{before}</Text> : before}
      {object !== null && (
        <>
          {' '}
          <Text span fw={600}>
            {object || 'an item'}
          </Text>
        </>
      )}
      {after}
    </Text>
  );
}

function When({ item, now }: { item: TimelineItem; now: number }) {
  return (
    <Group gap={6} wrap="nowrap">
      {item.isPending && (
        <Badge size="xs" variant="light" color="gray">
          Pending
        </Badge>
      )}
      <Text size="xs" c="dimmed" title={formatDateTime(item.postedAt)} style={{ whiteSpace: 'nowrap' }}>
        {relativeTime(item.postedAt, now)}
      </Text>
    </Group>
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

/** One timeline entry: an item, or a batch action's items under one line that expands to the list. */
export const TimelineEntryView = memo(function TimelineEntryView({ entry, now, isHighlighted }: { entry: TimelineEntry; now: number; isHighlighted: boolean }) {
  const [isOpen, setOpen] = useState(false);
  const first = entry.items[0]!;
  const isGroup = entry.items.length > 1;
  return (
    <Group
      align="flex-start"
      wrap="nowrap"
      gap="sm"
      px="sm"
      py={10}
      data-testid="timeline-entry"
      data-highlighted={isHighlighted || undefined}
      style={{
        borderRadius: 'var(--mantine-radius-md)',
        transition: 'background-color 300ms',
        background: isHighlighted ? 'var(--mantine-primary-color-light)' : undefined,
        opacity: first.isPending ? 0.75 : 1,
      }}
    >
      <Avatar size={32} radius="xl" color={first.isYou ? 'blue' : 'teal'} aria-hidden>
        {initialOf(first.authorName)}
      </Avatar>
      <Box miw={0} style={{ flex: 1 }}>
        <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
          <Group gap={6} wrap="nowrap" miw={0}>
            {isGroup ? (
              <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={isOpen} style={{ minWidth: 0 }}>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  <Text span fw={600}>
                    {first.authorName}
                  </Text>{' '}
                  {groupSummary(entry.items)}{' '}
                  <Text span c="blue" size="xs">
                    {isOpen ? 'Hide list' : 'Show list'}
                  </Text>
                </Text>
              </UnstyledButton>
            ) : (
              <ItemLine item={first} />
            )}
            {!isGroup && <StoredVersionStatusDot versionId={first.versionId} fallback={first.versionStatus} />}
          </Group>
          <When item={first} now={now} />
        </Group>
        {isGroup ? (
          <Collapse expanded={isOpen}>
            <List size="sm" mt={4} spacing={2} aria-label={groupSummary(entry.items)}>
              {entry.items.map((item) => (
                <List.Item key={item.id}>
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {item.name ?? 'an item'}
                    </Text>
                    <StoredVersionStatusDot versionId={item.versionId} fallback={item.versionStatus} />
                  </Group>
                </List.Item>
              ))}
            </List>
          </Collapse>
        ) : (
          <Details item={first} />
        )}
      </Box>
    </Group>
  );
});
