import { createTheme, localStorageColorSchemeManager, type MantineColorsTuple, useMantineColorScheme } from '@mantine/core';
import { useCallback, useEffect } from 'react';
import type { ThemeMode } from '../protocol/auth';
import { authService } from '../features/account/authService';
import { useSession } from '../features/account/useSession';

/** Stone-green, from the logo; shade 7 is the brand colour #1c6b60. */
const cairn: MantineColorsTuple = [
  '#e6f4f1',
  '#cfe7e2',
  '#9ecfc4',
  '#6ab5a5',
  '#44a08d',
  '#2d917d',
  '#1f7f6f',
  '#1c6b60',
  '#155a50',
  '#0c4840',
];

export const cairnTheme = createTheme({
  primaryColor: 'cairn',
  // White text on these shades stays at or above 4.5:1 in both schemes.
  primaryShade: { light: 7, dark: 6 },
  colors: { cairn },
  // The spec's breakpoints: 668 (phone layout below it), 960, 1280 and 1920 px.
  breakpoints: { xs: '41.75em', sm: '60em', md: '80em', lg: '120em', xl: '140em' },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  cursorType: 'pointer',
  // Someone whose system asks for less motion gets dialogs, menus and notices without animation.
  respectReducedMotion: true,
});

/**
 * The colour scheme lives in localStorage and is applied by MantineProvider at runtime: no inline
 * ColorSchemeScript, which the CSP (`script-src 'self'`) would block.
 */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'cairn-color-scheme' });

export interface ThemeModeControl {
  mode: ThemeMode;
  /** Applies the mode at once and, when signed in, stores it in the account's `mode` attribute. */
  setMode: (mode: ThemeMode) => Promise<void>;
}

/** Dark, Light or Auto (follows the system), for the Display page. */
export function useThemeMode(): ThemeModeControl {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const setMode = useCallback(
    async (mode: ThemeMode) => {
      setColorScheme(mode);
      if (authService.getSnapshot().status === 'signedIn') await authService.updateAttributes({ mode });
    },
    [setColorScheme],
  );
  return { mode: colorScheme, setMode };
}

/** Applies the signed-in account's `mode` on this device when it loads or changes elsewhere. */
export function useAccountThemeMode(): void {
  const { user } = useSession();
  const { setColorScheme } = useMantineColorScheme();
  const accountMode = user?.mode;
  useEffect(() => {
    if (accountMode) setColorScheme(accountMode);
  }, [accountMode, setColorScheme]);
}
