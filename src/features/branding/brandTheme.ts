/**
 * An organisation's colours as a Mantine theme (spec 001 section 3: primaryColor, secondaryColor).
 * Mantine wants ten shades of each colour; they are mixed from the organisation's hex towards
 * white (lighter shades) and black (darker ones), the organisation's own colour at shade 6, which
 * the branded theme uses in both schemes. `autoContrast` picks black or white text on it, since an
 * organisation may choose a light colour.
 */
import { createTheme, type MantineColorsTuple, mergeThemeOverrides, type MantineThemeOverride } from '@mantine/core';
import type { OrganisationBranding } from '../../protocol/organisations';

function channels(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

function mix(hex: string, towards: number, amount: number): string {
  const mixed = channels(hex).map((c) => Math.round(c + (towards - c) * amount));
  return `#${mixed.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** Ten shades of `hex` ('#rrggbb'), light to dark, `hex` itself at index 6. */
export function shadesOf(hex: string): MantineColorsTuple {
  const lighter = [0.9, 0.78, 0.62, 0.46, 0.3, 0.15].map((amount) => mix(hex, 255, amount));
  const darker = [0.15, 0.3, 0.45].map((amount) => mix(hex, 0, amount));
  return [...lighter, hex, ...darker] as unknown as MantineColorsTuple;
}

const HEX = /^#[0-9a-f]{6}$/i;

/** The theme overrides for `branding` on top of `base`; `base` unchanged when it has no valid primary colour. */
export function brandedTheme(base: MantineThemeOverride, branding: OrganisationBranding | null): MantineThemeOverride {
  const primary = branding?.primaryColor;
  if (!primary || !HEX.test(primary)) return base;
  const secondary = branding.secondaryColor && HEX.test(branding.secondaryColor) ? branding.secondaryColor : primary;
  return mergeThemeOverrides(
    base,
    createTheme({
      primaryColor: 'brand',
      primaryShade: { light: 6, dark: 6 },
      autoContrast: true,
      colors: { brand: shadesOf(primary.toLowerCase()), brandSecondary: shadesOf(secondary.toLowerCase()) },
    }),
  );
}
