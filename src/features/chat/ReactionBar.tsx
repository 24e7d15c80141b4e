import { ActionIcon, Button, Group, Popover, SimpleGrid, Tooltip, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { QUICK_REACTIONS, type ReactionChip } from '../../domain/memoRules';
import { IconMoodSmile } from '../../ui/icons';
import classes from './Chat.module.css';

interface ReactionBarProps {
  chips: ReactionChip[];
  canReact: boolean;
  onToggle: (emoji: string) => void;
}

/**
 * A message's reactions (spec 000 section 4, Reactions): one chip per emoji with its count, mine
 * highlighted; a click on a chip toggles my reaction. The smiley button opens the quick list of 8.
 */
export function ReactionBar({ chips, canReact, onToggle }: ReactionBarProps) {
  const [isOpen, setOpen] = useState(false);
  if (!chips.length && !canReact) return null;
  return (
    <Group gap={4} mt={4} wrap="wrap">
      {chips.map((chip) => (
        <Button
          key={chip.emoji}
          size="compact-xs"
          variant="default"
          radius="xl"
          className={classes.chip}
          data-mine={chip.isMine || undefined}
          aria-pressed={chip.isMine}
          aria-label={`${chip.emoji} ${chip.count}${chip.isMine ? ', including you' : ''}`}
          disabled={!canReact}
          onClick={() => onToggle(chip.emoji)}
        >
          <span aria-hidden>{chip.emoji}</span>&nbsp;<span aria-hidden>{chip.count}</span>
        </Button>
      ))}
      {canReact && (
        <Popover opened={isOpen} onChange={setOpen} position="top" withArrow shadow="md" trapFocus returnFocus>
          <Popover.Target>
            <Tooltip label="Add a reaction" openDelay={400}>
              <ActionIcon size="sm" variant="subtle" color="gray" radius="xl" aria-label="Add a reaction" onClick={() => setOpen((o) => !o)}>
                <IconMoodSmile size={16} />
              </ActionIcon>
            </Tooltip>
          </Popover.Target>
          <Popover.Dropdown p={6}>
            <SimpleGrid cols={4} spacing={2} role="group" aria-label="Reactions">
              {QUICK_REACTIONS.map((emoji) => (
                <UnstyledButton
                  key={emoji}
                  aria-label={`React with ${emoji}`}
                  fz={22}
                  p={4}
                  style={{ borderRadius: 6, textAlign: 'center' }}
                  onClick={() => {
                    setOpen(false);
                    onToggle(emoji);
                  }}
                >
                  {emoji}
                </UnstyledButton>
              ))}
            </SimpleGrid>
          </Popover.Dropdown>
        </Popover>
      )}
    </Group>
  );
}
