import { Anchor, Container, Stack, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

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
        <Stack gap={4}>
          {back && (
            <Anchor component={Link} to={back.to} size="sm" c="dimmed">
              ← {back.label}
            </Anchor>
          )}
          <Title order={1} size="h2">
            {title}
          </Title>
        </Stack>
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
