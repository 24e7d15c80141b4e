import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { type ReactNode, useMemo } from 'react';
import { SessionProvider } from '../features/account/useSession';
import { useBranding } from '../features/branding/brandingStore';
import { brandedTheme } from '../features/branding/brandTheme';
import { colorSchemeManager, cairnTheme, useAccountThemeMode } from './theme';

function AccountThemeMode() {
  useAccountThemeMode();
  return null;
}

/**
 * Snackbars at the bottom centre; on a phone at the top, clear of the bottom navigation and of the
 * upload progress box that sits above it.
 */
function AppNotifications() {
  // Read at once, so snackbars shown at start do not change places.
  const isPhone = useMediaQuery('(max-width: 41.6875em)', undefined, { getInitialValueInEffect: false });
  return <Notifications position={isPhone ? 'top-center' : 'bottom-center'} limit={3} />;
}

/** Theme (Dark / Light / Auto), notifications, modals and the session, around the whole app. */
export function AppProviders({ children }: { children: ReactNode }) {
  // On an organisation's subdomain its colours replace Cairn's (R135).
  const branding = useBranding();
  const theme = useMemo(() => brandedTheme(cairnTheme, branding), [branding]);
  return (
    <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
      <SessionProvider>
        <AccountThemeMode />
        <ModalsProvider>
          <AppNotifications />
          {children}
        </ModalsProvider>
      </SessionProvider>
    </MantineProvider>
  );
}
