import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';

interface NameModalProps {
  opened: boolean;
  title: string;
  label: string;
  initialValue?: string;
  submitLabel: string;
  maxLength?: number;
  onClose: () => void;
  /** Resolves when done; the modal closes on success. */
  onSubmit: (name: string) => Promise<boolean | void>;
}

/** Rename and create-folder dialogs: one non-empty name (spec 000 section 5). */
export function NameModal({ opened, title, label, initialValue = '', submitLabel, maxLength, onClose, onSubmit }: NameModalProps) {
  const [value, setValue] = useState(initialValue);
  const [isBusy, setBusy] = useState(false);

  useEffect(() => {
    if (opened) setValue(initialValue);
  }, [opened, initialValue]);

  const trimmed = value.trim();
  const canSubmit = trimmed !== '' && trimmed !== initialValue && !isBusy;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    setBusy(true);
    const ok = await onSubmit(trimmed);
    setBusy(false);
    if (ok !== false) onClose();
  }

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form onSubmit={submit}>
        <Stack>
          <TextInput label={label} value={value} onChange={(e) => setValue(e.currentTarget.value)} maxLength={maxLength} data-autofocus required />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!canSubmit} loading={isBusy}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
