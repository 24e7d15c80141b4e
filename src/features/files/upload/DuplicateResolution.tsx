import { Button, Checkbox, Group, Modal, ScrollArea, SegmentedControl, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { DuplicateChoice } from '../../../domain/uploadRules';

interface DuplicateResolutionProps {
  /** Names that clash with files in the destination, by index in the pick. */
  duplicates: { index: number; name: string }[] | null;
  onCancel: () => void;
  onResolve: (choices: Map<number, DuplicateChoice>) => void;
}

const CHOICE_DATA = [
  { value: 'replace', label: 'Replace' },
  { value: 'keepBoth', label: 'Keep both' },
  { value: 'skip', label: 'Skip' },
];

/** Replace (adds a version), Keep both (copy suffix) or Skip, per item or for all (spec 000 section 4). */
export function DuplicateResolution({ duplicates, onCancel, onResolve }: DuplicateResolutionProps) {
  const [choices, setChoices] = useState<Map<number, DuplicateChoice>>(new Map());
  const [applyToAll, setApplyToAll] = useState(false);
  const [allChoice, setAllChoice] = useState<DuplicateChoice>('keepBoth');

  useEffect(() => {
    setChoices(new Map((duplicates ?? []).map((d) => [d.index, 'keepBoth'])));
    setApplyToAll(false);
  }, [duplicates]);

  function resolve() {
    const final = applyToAll ? new Map((duplicates ?? []).map((d) => [d.index, allChoice])) : choices;
    onResolve(final);
  }

  const count = duplicates?.length ?? 0;
  return (
    <Modal opened={duplicates !== null} onClose={onCancel} title={count === 1 ? 'This file already exists' : `${count} files already exist`} centered size="lg">
      <Stack>
        <Text size="sm">A file with the same name is already in this folder. Choose what to do with each one.</Text>
        <Checkbox label="Apply to all" checked={applyToAll} onChange={(e) => setApplyToAll(e.currentTarget.checked)} />
        {applyToAll ? (
          <SegmentedControl aria-label="For all duplicates" data={CHOICE_DATA} value={allChoice} onChange={(v) => setAllChoice(v as DuplicateChoice)} />
        ) : (
          <ScrollArea.Autosize mah={300}>
            <Stack gap="xs">
              {(duplicates ?? []).map((d) => (
                <Group key={d.index} justify="space-between" wrap="wrap" gap="xs">
                  <Text size="sm" truncate maw={260}>
                    {d.name}
                  </Text>
                  <SegmentedControl
                    size="xs"
                    aria-label={`For ${d.name}`}
                    data={CHOICE_DATA}
                    value={choices.get(d.index) ?? 'keepBoth'}
                    onChange={(v) => setChoices((current) => new Map(current).set(d.index, v as DuplicateChoice))}
                  />
                </Group>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={resolve}>Continue</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
