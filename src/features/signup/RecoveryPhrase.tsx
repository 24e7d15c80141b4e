import { Button, Paper, SimpleGrid, Text } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { BACKUP_FILE_NAME, formatBackupText, formatPhraseLine } from '../../domain/backupText';
import { downloadText } from './downloadText';
import classes from './RecoveryPhrase.module.css';

/** The 12 words in a numbered, even grid, in reading order (RecoveryPhrase.module.css). */
export function RecoveryPhraseWords({ words }: { words: readonly string[] }) {
  return (
    <div className={classes.container}>
      <ol className={classes.grid} aria-label="Recovery phrase" data-testid="recovery-phrase">
        {words.map((word, index) => (
          <Paper component="li" key={index} withBorder radius="sm" px="xs" py={6} className={classes.tile}>
            <Text span c="dimmed" size="sm" ff="monospace" aria-hidden className={classes.number}>
              {index + 1}.
            </Text>
            <Text span size="sm" ff="monospace">
              {word}
            </Text>
          </Paper>
        ))}
      </ol>
    </div>
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
