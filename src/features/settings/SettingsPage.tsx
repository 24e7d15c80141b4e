import { Anchor, Container, Stack } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { PageHeader } from '../../ui/PageHeader';

interface SettingsPageProps {
  title: string;
  /** The parent page, for the back link. */
  back?: { to: string; label: string };
  children: ReactNode;
}

/** The frame of every account page: a back link, the title, and a column of content. */
export function SettingsPage({ title, back, children }: SettingsPageProps) {
  return (
    <Container size={640} px={{ base: 'md', sm: 'lg' }} py="lg">
      <Stack gap="lg">
        <div>
          {back && (
            <Anchor component={Link} to={back.to} size="sm" c="dimmed" display="inline-block" mb={4}>
              ← {back.label}
            </Anchor>
          )}
          <PageHeader title={title} />
        </div>
        {children}
      </Stack>
    </Container>
  );
}

export const BACK_TO_ACCOUNT = { to: '/account', label: 'Account' } as const;
export const BACK_TO_SECURITY = { to: '/account/security', label: 'Security and Privacy' } as const;
export const BACK_TO_TWO_FACTOR = {
  to: '/account/security/two-factor-authentication',
  label: 'Two-factor authentication',
} as const;
