import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { type FocusEvent, type FormEvent, useEffect, useRef, useState } from 'react';

interface NameModalProps {
  opened: boolean;
  title: string;
  label: string;
  initialValue?: string;
  submitLabel: string;
  maxLength?: number;
  /**
   * How much of the initial name is selected when the field opens: a file's rename selects the
   * name before its extension ('photo' of 'photo.png'), as desktop file managers do. Default: all.
   */
  selectLength?: number;
  /** Why the (trimmed) name cannot be used, shown in the field as it is typed; null when it can. */
  validate?: (name: string) => string | null;
  onClose: () => void;
  /** Resolves when done; the modal closes on success. A string is a refusal shown in the field. */
  onSubmit: (name: string) => Promise<boolean | void | string>;
}

/** Rename and create-folder dialogs: one non-empty name (spec 000 section 5). */
export function NameModal({ opened, title, label, initialValue = '', submitLabel, maxLength, selectLength, validate, onClose, onSubmit }: NameModalProps) {
  const [value, setValue] = useState(initialValue);
  const [isBusy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const hasSelected = useRef(false);

  useEffect(() => {
    if (opened) {
      setValue(initialValue);
      setRefusal(null);
      hasSelected.current = false;
    }
  }, [opened, initialValue]);

  const trimmed = value.trim();
  const isUnchanged = trimmed === initialValue;
  // An empty field says nothing until submitted: 'required' covers it, and a red field before any typing scolds.
  const error = refusal ?? (trimmed !== '' && !isUnchanged ? (validate?.(trimmed) ?? null) : null);
  const canSubmit = trimmed !== '' && !isUnchanged && !isBusy && error === null;

  function selectOnFirstFocus(event: FocusEvent<HTMLInputElement>) {
    if (hasSelected.current) return;
    hasSelected.current = true;
    event.currentTarget.setSelectionRange(0, selectLength ?? event.currentTarget.value.length);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    setBusy(true);
    const result = await onSubmit(trimmed);
    setBusy(false);
    if (typeof result === 'string') setRefusal(result);
    else if (result !== false) onClose();
  }

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label={label}
            value={value}
            onChange={(e) => {
              setValue(e.currentTarget.value);
              setRefusal(null);
            }}
            onFocus={selectOnFirstFocus}
            maxLength={maxLength}
            error={error}
            data-autofocus
            required
          />
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
