import { Center, Loader, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The card of the invite, confirm and reject pages inside the app shell; full width on a phone. */
export function InvitationLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Center>
      <Paper withBorder radius="md" p={{ base: 'md', xs: 'xl' }} w="100%" maw={640}>
        <Stack gap="lg">
          <Title order={1} fz={{ base: 24, xs: 28 }}>
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

export function InvitationLoader({ label }: { label: string }) {
  return (
    <Center py="xl">
      <Loader aria-label={label} />
    </Center>
  );
}
