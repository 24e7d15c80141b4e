import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconAlert } from './icons';

interface NoticeBarProps {
  children: ReactNode;
  color?: string;
}

/** A full-width notice above the page content (serious-issue mode, offline). */
export function NoticeBar({ children, color = 'yellow' }: NoticeBarProps) {
  return (
    <Alert
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
