import { Button, Paper, SimpleGrid, Text } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { BACKUP_FILE_NAME, formatBackupText, formatPhraseLine } from '../../domain/backupText';
import { downloadText } from './downloadText';

/** The 12 words in a numbered grid, in reading order (3 per row, 2 on narrow screens). */
export function RecoveryPhraseWords({ words }: { words: readonly string[] }) {
  return (
    <SimpleGrid
      component="ol"
      cols={{ base: 2, xs: 3 }}
      spacing="xs"
      verticalSpacing="xs"
      aria-label="Recovery phrase"
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
      data-testid="recovery-phrase"
    >
      {words.map((word, index) => (
        <Paper component="li" key={index} withBorder radius="sm" px="sm" py={6}>
          <Text size="sm" ff="monospace">
            <Text span c="dimmed" size="sm" ff="monospace" aria-hidden>
              {String(index + 1).padStart(2, ' ')}.{' '}
            </Text>
            {word}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** 'Download' (a text file, 3 words per row) and 'Copy to clipboard' with a copied confirmation. */
export function RecoveryPhraseActions({ words }: { words: readonly string[] }) {
  const clipboard = useClipboard({ timeout: 1_500 });
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
      <Button variant="default" onClick={() => downloadText(BACKUP_FILE_NAME, formatBackupText(words))}>
        Download
      </Button>
      <Button variant="default" onClick={() => clipboard.copy(formatPhraseLine(words))} aria-live="polite">
        {clipboard.copied ? 'Copied!' : 'Copy to clipboard'}
      </Button>
    </SimpleGrid>
  );
}
