import type { AppShellProps } from '@mantine/core';

/**
 * The frame every shell shares (the signed-in app's and the public viewer's): header, side
 * navigation that becomes a bottom bar on phones, no padding around the page.
 */
export const SHELL_LAYOUT = {
  layout: 'alt',
  header: { height: 60 },
  navbar: { width: 250, breakpoint: 'xs', collapsed: { mobile: true } },
  footer: { height: { base: 64, xs: 0 } },
  padding: 0,
} satisfies Partial<AppShellProps>;
