import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { SessionProvider } from '../features/account/useSession';
import { colorSchemeManager, cairnTheme, useAccountThemeMode } from './theme';

function AccountThemeMode() {
  useAccountThemeMode();
  return null;
}

/** Theme (Dark / Light / Auto), notifications, modals and the session, around the whole app. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={cairnTheme} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
      <SessionProvider>
        <AccountThemeMode />
        <ModalsProvider>
          <Notifications position="bottom-center" limit={3} />
          {children}
        </ModalsProvider>
      </SessionProvider>
    </MantineProvider>
  );
}
