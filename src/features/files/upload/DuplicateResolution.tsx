import { Button, Checkbox, Group, Modal, ScrollArea, SegmentedControl, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { DuplicateChoice } from '../../../domain/uploadRules';

export interface Duplicate {
  /** Index in the pick. */
  index: number;
  name: string;
}

/** What the user chose: per item, or one choice for all. */
export interface DuplicateSelection {
  choices: Map<number, DuplicateChoice>;
  applyToAll: boolean;
  allChoice: DuplicateChoice;
}

const CHOICE_DATA = [
  { value: 'replace', label: 'Replace' },
  { value: 'keepBoth', label: 'Keep both' },
  { value: 'skip', label: 'Skip' },
];

/** The choices before anything is picked: Keep both for each (nothing is lost by default). */
export function initialSelection(duplicates: readonly Duplicate[] | null): DuplicateSelection {
  return { choices: new Map((duplicates ?? []).map((d) => [d.index, 'keepBoth'])), applyToAll: false, allChoice: 'keepBoth' };
}

/** The choice for each duplicate, by index in the pick. */
export function finalChoices(duplicates: readonly Duplicate[] | null, selection: DuplicateSelection): Map<number, DuplicateChoice> {
  return selection.applyToAll ? new Map((duplicates ?? []).map((d) => [d.index, selection.allChoice])) : selection.choices;
}

export function duplicatesTitle(count: number): string {
  return count === 1 ? 'This file already exists' : `${count} files already exist`;
}

/**
 * Replace (adds a version), Keep both (copy suffix) or Skip, per item or for all (spec 000
 * section 4). A section of the upload dialog, so a duplicate is answered in the same step as the
 * upload is confirmed (issue 26), and the body of the import's own duplicate dialog.
 */
export function DuplicateChoices({ duplicates, value, onChange }: { duplicates: readonly Duplicate[]; value: DuplicateSelection; onChange: (next: DuplicateSelection) => void }) {
  return (
    <Stack gap="xs">
      <Text size="sm">A file with the same name is already in this folder. Choose what to do with each one.</Text>
      <Checkbox label="Apply to all" checked={value.applyToAll} onChange={(e) => onChange({ ...value, applyToAll: e.currentTarget.checked })} />
      {value.applyToAll ? (
        <SegmentedControl aria-label="For all duplicates" data={CHOICE_DATA} value={value.allChoice} onChange={(v) => onChange({ ...value, allChoice: v as DuplicateChoice })} />
      ) : (
        <ScrollArea.Autosize mah={200}>
          <Stack gap="xs">
            {duplicates.map((d) => (
              <Group key={d.index} justify="space-between" wrap="wrap" gap="xs">
                <Text size="sm" truncate maw={260}>
                  {d.name}
                </Text>
                <SegmentedControl
                  size="xs"
                  aria-label={`For ${d.name}`}
                  data={CHOICE_DATA}
                  value={value.choices.get(d.index) ?? 'keepBoth'}
                  onChange={(v) => onChange({ ...value, choices: new Map(value.choices).set(d.index, v as DuplicateChoice) })}
                />
              </Group>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}

interface DuplicateResolutionProps {
  duplicates: Duplicate[] | null;
  onCancel: () => void;
  onResolve: (choices: Map<number, DuplicateChoice>) => void;
}

/** The duplicate question on its own, for an import (which has no upload dialog). */
export function DuplicateResolution({ duplicates, onCancel, onResolve }: DuplicateResolutionProps) {
  const [selection, setSelection] = useState(() => initialSelection(duplicates));
  useEffect(() => setSelection(initialSelection(duplicates)), [duplicates]);

  return (
    <Modal opened={duplicates !== null} onClose={onCancel} title={duplicatesTitle(duplicates?.length ?? 0)} centered size="lg">
      <Stack>
        <DuplicateChoices duplicates={duplicates ?? []} value={selection} onChange={setSelection} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={() => onResolve(finalChoices(duplicates, selection))}>Continue</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
