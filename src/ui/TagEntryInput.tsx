import { Pill, PillsInput, Text } from '@mantine/core';
import { type ClipboardEvent, type KeyboardEvent, useId, useState } from 'react';
import { addTag, addTagsFromText, removeLastTag, shouldShowTagHint, TAG_HINT, tagPlaceholder } from '../domain/tagRules';

interface TagEntryInputProps {
  label: string;
  value: string[];
  onChange: (tags: string[]) => void;
  disabled?: boolean;
  maxTagLength?: number;
}

/**
 * Tags typed as text and finished with a comma (spec 000 section 5). The rules live in
 * domain/tagRules; this only wires keys and pills.
 */
export function TagEntryInput({ label, value, onChange, disabled, maxTagLength }: TagEntryInputProps) {
  const [text, setText] = useState('');
  const hintId = useId();
  const showHint = shouldShowTagHint(value, text);

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === ',') {
      event.preventDefault();
      onChange(addTag(value, text));
      setText('');
    } else if (event.key === 'Backspace' && text === '' && value.length > 0) {
      event.preventDefault();
      onChange(removeLastTag(value, text));
    }
  }

  function onPaste(event: ClipboardEvent<HTMLInputElement>) {
    const pasted = event.clipboardData.getData('text');
    if (!pasted.includes(',')) return;
    event.preventDefault();
    const result = addTagsFromText(value, text + pasted);
    onChange(result.tags);
    setText(result.rest);
  }

  return (
    <div>
      <PillsInput label={label} disabled={disabled}>
        <Pill.Group>
          {value.map((tag) => (
            <Pill
              key={tag}
              withRemoveButton={!disabled}
              onRemove={() => onChange(value.filter((t) => t !== tag))}
              removeButtonProps={{ 'aria-label': `Remove tag ${tag}` }}
            >
              {tag}
            </Pill>
          ))}
          <PillsInput.Field
            value={text}
            maxLength={maxTagLength}
            placeholder={tagPlaceholder(value)}
            aria-describedby={showHint ? hintId : undefined}
            onChange={(event) => setText(event.currentTarget.value.replace(/,/g, ''))}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
          />
        </Pill.Group>
      </PillsInput>
      {showHint && (
        <Text id={hintId} size="xs" c="dimmed" mt={4} role="status">
          {TAG_HINT}
        </Text>
      )}
    </div>
  );
}
