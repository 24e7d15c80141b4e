import { EmptyState, Paper } from '@mantine/core';
import type { ReactNode } from 'react';

interface EmptyPanelProps {
  icon: ReactNode;
  title: string;
  description: ReactNode;
  actions?: ReactNode;
}

/** A bordered empty state: what will appear here, and what to do next. */
export function EmptyPanel({ icon, title, description, actions }: EmptyPanelProps) {
  return (
    <Paper withBorder radius="md" py={{ base: 40, xs: 64 }} px="md">
      <EmptyState icon={icon} variant="light" title={title} description={description}>
        {actions && <EmptyState.Actions>{actions}</EmptyState.Actions>}
      </EmptyState>
    </Paper>
  );
}
