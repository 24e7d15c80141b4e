import { Alert, Button, Group } from '@mantine/core';

interface ConfirmFooterProps {
  error: string | null;
  isLoading: boolean;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** The error line and Cancel / red confirm buttons at the foot of a destructive confirmation. */
export function ConfirmFooter({ error, isLoading, confirmLabel, onCancel, onConfirm }: ConfirmFooterProps) {
  return (
    <>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={isLoading}>
          Cancel
        </Button>
        <Button color="red" onClick={onConfirm} loading={isLoading}>
          {confirmLabel}
        </Button>
      </Group>
    </>
  );
}
