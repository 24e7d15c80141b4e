import { SimpleGrid, TextInput } from '@mantine/core';
import type { ClipboardEvent } from 'react';
import { fillPhraseBoxes, parsePhraseText } from '../../domain/backupText';

interface PhraseInputGridProps {
  words: string[];
  onChange: (words: string[]) => void;
}

/** 12 numbered boxes; pasting (or typing) several words into any box spreads them over the boxes. */
export function PhraseInputGrid({ words, onChange }: PhraseInputGridProps) {
  function handlePaste(index: number, event: ClipboardEvent<HTMLInputElement>) {
    const text = event.clipboardData.getData('text');
    if (parsePhraseText(text).length > 1) {
      event.preventDefault();
      onChange(fillPhraseBoxes(words, index, text));
    }
  }

  return (
    <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="xs" verticalSpacing="xs">
      {words.map((word, index) => (
        <TextInput
          key={index}
          label={`Word ${index + 1}`}
          leftSection={<span aria-hidden>{index + 1}.</span>}
          leftSectionWidth={36}
          value={word}
          autoComplete="off"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          data-private
          onPaste={(event) => handlePaste(index, event)}
          onChange={(event) => onChange(fillPhraseBoxes(words, index, event.currentTarget.value))}
          styles={{ label: { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' } }}
        />
      ))}
    </SimpleGrid>
  );
}
