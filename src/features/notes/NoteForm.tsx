import { Alert, Box, Button, Grid, Group, Paper, SegmentedControl, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { canSaveNote, noteFileName, noteProblem, saveNoteLabel } from '../../domain/noteRules';
import { VAULT_LIMITS } from '../../protocol/vaults';
import { MarkdownPreview } from '../files/viewer/MarkdownPreview';
import type { NoteDraft } from './useNoteDraft';

type View = 'edit' | 'preview' | 'split';

interface NoteFormProps {
  draft: NoteDraft;
  /** What the note last saved; null for a new note. */
  saved: { title: string; text: string } | null;
  isDisabled?: boolean;
  /** Asks for the saveNote confirmation; called only when the note can be saved. */
  onSave: (title: string, text: string) => void;
  onCancel: () => void;
}

function initialView(): View {
  return typeof window !== 'undefined' && window.matchMedia?.('(min-width: 48em)').matches ? 'split' : 'edit';
}

/**
 * The note editor's form: title, markdown text and its inert rendered preview side by side (wide
 * screens) or one at a time. Save follows the spec's rules (spec 000 section 4); Ctrl/Cmd+S saves.
 */
export function NoteForm({ draft, saved, isDisabled = false, onSave, onCancel }: NoteFormProps) {
  const [view, setView] = useState<View>(initialView);
  const [problem, setProblem] = useState<string | null>(null);
  const isNew = saved === null;
  const canSave = !isDisabled && draft.isReady && canSaveNote({ title: draft.title, text: draft.text, saved });
  const fileName = noteFileName(draft.title, draft.text);

  function save() {
    if (!canSave) return;
    const found = noteProblem({ title: draft.title, text: draft.text });
    setProblem(found);
    if (!found) onSave(draft.title, draft.text);
  }

  const editor = (
    <Textarea
      label="Text"
      description="Markdown"
      placeholder="Write your note in markdown"
      autosize
      minRows={12}
      maxRows={30}
      value={draft.text}
      disabled={!draft.isReady || isDisabled}
      onChange={(e) => {
        setProblem(null);
        draft.setText(e.currentTarget.value);
      }}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
    />
  );
  const preview = (
    <Box>
      <Text fw={500} fz="sm" mb={4} component="h2">
        Preview
      </Text>
      <Paper withBorder p="md" radius="md" mih={200} aria-label="Note preview" component="section">
        {draft.text.trim() ? <MarkdownPreview text={draft.text} /> : <Text c="dimmed">Nothing to preview yet.</Text>}
      </Paper>
    </Box>
  );

  return (
    <Box
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      onKeyDown={(e) => {
        if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
          e.preventDefault();
          save();
        }
      }}
    >
      <TextInput
        label="Title"
        placeholder="Untitled"
        description={fileName ? `Saved as ${fileName}` : 'Without a title, the first line of the text names the note.'}
        maxLength={VAULT_LIMITS.NAME_MAX - 3}
        value={draft.title}
        disabled={!draft.isReady || isDisabled}
        onChange={(e) => {
          setProblem(null);
          draft.setTitle(e.currentTarget.value);
        }}
        mb="md"
      />
      <SegmentedControl
        value={view}
        onChange={(value) => setView(value as View)}
        data={[
          { label: 'Edit', value: 'edit' },
          { label: 'Preview', value: 'preview' },
          { label: 'Side by side', value: 'split' },
        ]}
        mb="sm"
        aria-label="Editor view"
      />
      {view === 'split' ? (
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>{editor}</Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>{preview}</Grid.Col>
        </Grid>
      ) : view === 'edit' ? (
        editor
      ) : (
        preview
      )}
      {problem && (
        <Alert color="red" mt="md" role="alert">
          {problem}
        </Alert>
      )}
      {draft.limitMessage && (
        <Alert color="yellow" mt="md" role="alert">
          {draft.limitMessage}
        </Alert>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={!canSave}>
          {saveNoteLabel(isNew)}
        </Button>
      </Group>
    </Box>
  );
}
