import { Box, Center, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { BrandLogo } from '../features/branding/BrandLogo';

interface AuthLayoutProps {
  /** The page heading (an h1). */
  title: ReactNode;
  children: ReactNode;
  /** Replaces the logo (Cairn's, or the organisation's on its subdomain). */
  logo?: ReactNode;
  /** Content above the card, e.g. the login page's announcement banner. */
  banner?: ReactNode;
  /** Card width in px on larger screens; the card always fits a 375 px phone. */
  width?: number;
}

/**
 * The signed-out card layout shared by login, two-factor, sign-up and recovery: the logo, a
 * heading and the form, centred, full width on a phone.
 */
export function AuthLayout({ title, children, logo, banner, width = 440 }: AuthLayoutProps) {
  return (
    <Box component="main" mih="100dvh" bg="var(--mantine-color-body)" px="md" py="xl">
      <Center>
        <Stack w="100%" maw={width} gap="lg">
          {banner}
          <Center>{logo ?? <BrandLogo size={44} withWordmark />}</Center>
          <Paper withBorder radius="md" p={{ base: 'lg', xs: 'xl' }} shadow="sm">
            <Stack gap="lg">
              <Title order={1} fz={{ base: 24, xs: 28 }} ta="center">
                {title}
              </Title>
              {children}
            </Stack>
          </Paper>
        </Stack>
      </Center>
    </Box>
  );
}
