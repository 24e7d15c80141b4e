import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

interface ConfirmOptions {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  isDanger?: boolean;
  onConfirm: () => void;
}

/** A confirmation dialog (spec 000 section 8 lists which actions need one). */
export function confirmAction({ title, message, confirmLabel, isDanger, onConfirm }: ConfirmOptions) {
  modals.openConfirmModal({
    title,
    centered: true,
    children: typeof message === 'string' ? <Text size="sm">{message}</Text> : message,
    labels: { confirm: confirmLabel, cancel: 'Cancel' },
    confirmProps: isDanger ? { color: 'red' } : undefined,
    onConfirm,
  });
}
