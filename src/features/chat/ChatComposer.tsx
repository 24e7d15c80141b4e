import { ActionIcon, Group, Text, Textarea } from '@mantine/core';
import { useState, type KeyboardEvent } from 'react';
import { checkMessage, INPUT_MAX_ROWS } from '../../domain/memoRules';
import { MEMO_LIMITS } from '../../protocol/vaults';
import { IconSend } from '../../ui/icons';

interface ChatComposerProps {
  /** When set, the input is disabled and this note says why. */
  disabledReason: string | null;
  onSend: (text: string) => Promise<boolean>;
}

/**
 * The message input (spec 000 section 2, Chat): Enter sends, Shift+Enter adds a line, the input
 * grows up to 5 rows; an empty or whitespace-only message is not posted (section 5).
 */
export function ChatComposer({ disabledReason, onSend }: ChatComposerProps) {
  const [text, setText] = useState('');
  const checked = checkMessage(text);
  const isDisabled = disabledReason !== null;

  /**
   * Clears the input at once, so what is typed next is never lost when the message is queued; a
   * message that could not be queued comes back unless something new was typed meanwhile.
   */
  async function send() {
    if (checked.problem !== null) return;
    const sent = text;
    setText('');
    if (!(await onSend(checked.text))) setText((current) => current || sent);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // An IME composition's Enter confirms the composition; it does not send.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  return (
    <div>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <Textarea
          flex={1}
          aria-label="Message"
          placeholder={isDisabled ? undefined : 'Write a message'}
          autosize
          minRows={1}
          maxRows={INPUT_MAX_ROWS}
          value={text}
          disabled={isDisabled}
          error={checked.problem === 'TOO_LONG' ? `A message is at most ${MEMO_LIMITS.MESSAGE_MAX.toLocaleString('en')} characters.` : undefined}
          onChange={(event) => setText(event.currentTarget.value)}
          onKeyDown={onKeyDown}
        />
        <ActionIcon size={36} radius="md" aria-label="Send" disabled={isDisabled || checked.problem !== null} onClick={() => void send()}>
          <IconSend size={18} />
        </ActionIcon>
      </Group>
      {disabledReason && (
        <Text size="xs" c="dimmed" mt={4}>
          {disabledReason}
        </Text>
      )}
    </div>
  );
}
