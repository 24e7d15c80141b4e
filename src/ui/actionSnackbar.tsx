import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { runWithErrorSnackbar, showSnackbar } from './snackbar';

/**
 * Long enough to reach Undo, as long as the spec's upload snackbars (10 s); Mantine also pauses
 * the timer while the pointer is over the snackbar. Errors keep their 3 s (snackbar.ts).
 */
export const UNDO_SNACKBAR_MS = 10_000;

export interface UndoAction {
  /** Runs the inverse action; it goes through the same signed operation path as the action. */
  run: () => Promise<unknown>;
  /** The snackbar once undone, e.g. 'File restored'. */
  doneText: string;
  /** The error snackbar if undoing fails. */
  errorText: string;
}

/**
 * The snackbar after an action: its text and, where the action can be undone, an Undo button
 * that closes it and runs the inverse action once (a second press cannot undo twice).
 */
export function showActionSnackbar(message: string, undo?: UndoAction) {
  if (!undo) {
    showSnackbar(message);
    return;
  }
  const id = `undo-${crypto.randomUUID()}`;
  let isUndone = false;
  const onUndo = () => {
    if (isUndone) return;
    isUndone = true;
    notifications.hide(id);
    void runWithErrorSnackbar(undo.run, undo.errorText).then((ok) => ok && showSnackbar(undo.doneText));
  };
  notifications.show({
    id,
    autoClose: UNDO_SNACKBAR_MS,
    message: (
      <Group gap="sm" justify="space-between" wrap="nowrap">
        <Text size="sm">{message}</Text>
        <Button size="compact-sm" variant="subtle" onClick={onUndo}>
          Undo
        </Button>
      </Group>
    ),
  });
}
