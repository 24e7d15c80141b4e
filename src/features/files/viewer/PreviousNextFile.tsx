import { ActionIcon, Group, Text } from '@mantine/core';
import { isPageKey, useWindowKeyDown } from '../../../ui/pageKeys';
import { IconChevronRight } from '../../../ui/icons';

interface PreviousNextFileProps {
  /** The files of the folder in the list's order. */
  fileIds: readonly string[];
  currentId: string;
  onOpen: (fileId: string) => void;
}

/** Previous and next file of the folder, as buttons and with the arrow keys (spec 000 section 4, stack viewer). */
export function PreviousNextFile({ fileIds, currentId, onOpen }: PreviousNextFileProps) {
  const index = fileIds.indexOf(currentId);
  const previous = index > 0 ? fileIds[index - 1] : undefined;
  const next = index >= 0 && index < fileIds.length - 1 ? fileIds[index + 1] : undefined;

  useWindowKeyDown((event) => {
    if (!isPageKey(event)) return;
    const target = event.key === 'ArrowLeft' ? previous : event.key === 'ArrowRight' ? next : undefined;
    if (!target) return;
    event.preventDefault();
    onOpen(target);
  });

  if (index < 0 || fileIds.length < 2) return null;
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon variant="default" size="lg" aria-label="Previous file" disabled={!previous} onClick={() => previous && onOpen(previous)}>
        <IconChevronRight size={18} style={{ transform: 'rotate(180deg)' }} />
      </ActionIcon>
      <Text size="sm" c="dimmed" visibleFrom="xs" aria-live="polite">
        {index + 1} of {fileIds.length}
      </Text>
      <ActionIcon variant="default" size="lg" aria-label="Next file" disabled={!next} onClick={() => next && onOpen(next)}>
        <IconChevronRight size={18} />
      </ActionIcon>
    </Group>
  );
}
