import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconAlert } from './icons';

interface NoticeBarProps {
  children: ReactNode;
  color?: string;
  /** Shows a close button (a priority notification's bar closes by marking it read). */
  onClose?: (() => void) | undefined;
}

/** A full-width notice above the page content (serious-issue mode, offline). */
export function NoticeBar({ children, color = 'yellow', onClose }: NoticeBarProps) {
  return (
    <Alert
      {...(onClose ? { withCloseButton: true, onClose, closeButtonLabel: 'Mark as read' } : {})}
      color={color}
      variant="light"
      radius={0}
      icon={<IconAlert size={18} />}
      role="status"
      styles={{ root: { borderBottom: '1px solid var(--mantine-color-default-border)' } }}
    >
      {children}
    </Alert>
  );
}
