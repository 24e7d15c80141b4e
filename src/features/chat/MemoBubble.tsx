import { ActionIcon, Box, Group, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { memo, useState } from 'react';
import type { ReactNode } from 'react';
import { formatMemoTime, isLongMemo } from '../../domain/memoRules';
import type { MemoRecord } from '../../storage/vaultRecords';
import { IconX } from '../../ui/icons';
import classes from './Chat.module.css';

interface MemoBubbleProps {
  memo: MemoRecord;
  authorName: string;
  isMine: boolean;
  isHighlighted: boolean;
  now: number;
  reactions: ReactNode;
  onDismiss: (opId: string) => void;
}

/**
 * One message: author, time, the text as plain text with its line breaks (React escapes it; no
 * markdown, no HTML: a message renders inert), its reactions, and a pending or refused mark.
 */
export const MemoBubble = memo(function MemoBubble({ memo: m, authorName, isMine, isHighlighted, now, reactions, onDismiss }: MemoBubbleProps) {
  const isPending = m.pendingOpIds.length > 0 && !m.rejection;
  const time = new Date(m.createdAt);
  return (
    <div className={classes.row} data-mine={isMine || undefined} data-testid="memo" data-memo-id={m.memoId}>
      <Group gap={6} mb={2} wrap="nowrap" className={classes.author}>
        <Text size="xs" fw={600} truncate>
          {authorName}
        </Text>
        <Tooltip label={time.toLocaleString()} openDelay={400}>
          <Text size="xs" c="dimmed" component="time" dateTime={time.toISOString()} style={{ whiteSpace: 'nowrap' }}>
            {formatMemoTime(m.createdAt, now)}
          </Text>
        </Tooltip>
        {isPending && (
          <Text size="xs" c="dimmed" fs="italic" style={{ whiteSpace: 'nowrap' }}>
            Sending…
          </Text>
        )}
      </Group>
      <Box
        className={classes.bubble}
        data-highlighted={isHighlighted || undefined}
        data-pending={isPending || undefined}
        data-rejected={m.rejection ? true : undefined}
      >
        {m.text === null ? (
          <Text size="sm" c="dimmed" fs="italic">
            This message cannot be decrypted on this device.
          </Text>
        ) : (
          <MemoText text={m.text} />
        )}
      </Box>
      {m.rejection && (
        <Group gap={4} mt={2} wrap="nowrap">
          <Text size="xs" c="red" role="alert">
            {m.rejection.type === 'memo.create' ? 'Not sent' : 'Reaction not saved'}: {m.rejection.message}
          </Text>
          <ActionIcon size="xs" variant="subtle" color="red" aria-label="Dismiss" onClick={() => onDismiss(m.rejection!.opId)}>
            <IconX size={12} />
          </ActionIcon>
        </Group>
      )}
      {reactions}
    </div>
  );
});

/** The text, clamped to MEMO_CLAMP_LINES lines with 'more' and 'less' when it is long. */
function MemoText({ text }: { text: string }) {
  const [isExpanded, setExpanded] = useState(false);
  const isLong = isLongMemo(text);
  return (
    <>
      <Text size="sm" className={classes.text} data-clamped={(isLong && !isExpanded) || undefined} data-testid="memo-text">
        {text}
      </Text>
      {isLong && (
        <UnstyledButton className={classes.more} aria-expanded={isExpanded} onClick={() => setExpanded(!isExpanded)}>
          {isExpanded ? 'less' : 'more'}
        </UnstyledButton>
      )}
    </>
  );
}
