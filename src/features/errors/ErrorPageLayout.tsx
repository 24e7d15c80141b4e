import { Box, Center, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useContext } from 'react';
import { InAppShellContext } from '../../ui/InAppShellContext';
import { CairnLogo } from '../../ui/CairnLogo';

interface ErrorPageLayoutProps {
  title: string;
  children: ReactNode;
  /** Buttons and links under the text. */
  actions?: ReactNode;
  /** A large decorative figure such as "404". */
  figure?: string;
}

/** The full-page layout of the 404, 418, maintenance and crash pages (phone layout below 668 px). */
export function ErrorPageLayout({ title, children, actions, figure }: ErrorPageLayoutProps) {
  // Inside the app shell (a page crashed) the shell already has the logo and the main landmark.
  const isInShell = useContext(InAppShellContext);
  return (
    <Box
      component={isInShell ? 'section' : 'main'}
      mih={isInShell ? undefined : '100dvh'}
      px="md"
      py={isInShell ? 'xl' : { base: 'xl', xs: 64 }}
    >
      <Center>
        <Stack maw={560} w="100%" gap="lg" align="center" ta="center">
          {!isInShell && <CairnLogo size={40} withWordmark />}
          {figure && (
            <Text aria-hidden fz={{ base: 72, xs: 112 }} fw={800} lh={1} c="var(--mantine-primary-color-light-color)">
              {figure}
            </Text>
          )}
          <Title order={1} fz={{ base: 26, xs: 34 }}>
            {title}
          </Title>
          <Stack gap="sm" c="dimmed" fz="md">
            {children}
          </Stack>
          {actions}
        </Stack>
      </Center>
    </Box>
  );
}
