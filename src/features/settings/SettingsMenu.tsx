import { NavLink, Paper, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

export interface SettingsMenuEntry {
  label: string;
  description?: ReactNode;
  /** An in-app route. */
  to?: string;
  /** An external address, opened in a new tab. */
  href?: string;
  onClick?: () => void;
  disabled?: boolean;
  color?: string;
}

/** A bordered list of navigation entries (the account and security menus). */
export function SettingsMenu({ entries, label }: { entries: SettingsMenuEntry[]; label: string }) {
  return (
    <Paper withBorder radius="md" component="nav" aria-label={label}>
      {entries.map((entry, index) => {
        const common = {
          label: <Text fw={500} c={entry.color}>{entry.label}</Text>,
          description: entry.description,
          disabled: entry.disabled,
          rightSection: <span aria-hidden>›</span>,
          style: index > 0 ? { borderTop: '1px solid var(--mantine-color-default-border)' } : undefined,
          py: 'sm',
        };
        if (entry.to) return <NavLink key={entry.label} component={Link} to={entry.to} {...common} />;
        if (entry.href) {
          return (
            <NavLink
              key={entry.label}
              href={entry.href}
              target="_blank"
              rel="noopener noreferrer"
              {...common}
              rightSection={<span aria-hidden>↗</span>}
            />
          );
        }
        return <NavLink key={entry.label} component="button" type="button" onClick={entry.onClick} {...common} />;
      })}
    </Paper>
  );
}
