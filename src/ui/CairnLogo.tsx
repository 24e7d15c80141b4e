import { Group, Text } from '@mantine/core';

interface CairnLogoProps {
  /** Height of the mark in px. */
  size?: number;
  /** Shows the word "Cairn" beside the mark. */
  withWordmark?: boolean;
}

/** The Cairn mark: four stacked stones, in the theme's primary colour so it follows dark mode. */
export function CairnLogo({ size = 32, withWordmark = false }: CairnLogoProps) {
  const mark = (
    <svg
      width={size}
      height={size}
      viewBox="0 0 64 64"
      fill="var(--mantine-primary-color-filled)"
      aria-hidden={withWordmark ? true : undefined}
      role={withWordmark ? undefined : 'img'}
      aria-label={withWordmark ? undefined : 'Cairn'}
      focusable="false"
    >
      <path d="M10 49.5c0-4.6 9.8-8.3 22-8.3s22 3.7 22 8.3-9.8 8-22 8-22-3.4-22-8z" />
      <path d="M16.5 35.2c0-3.7 6.9-6.6 15-6.6s15 2.9 15 6.6-6.7 6.3-15 6.3-15-2.6-15-6.3z" opacity=".85" />
      <path d="M23.5 23c0-3 4.2-5.3 9.3-5.3S42 20 42 23s-4.1 5-9.2 5-9.3-2-9.3-5z" opacity=".72" />
      <path d="M27.5 12.6c0-2.2 2.2-3.9 4.8-3.9s4.8 1.7 4.8 3.9-2.1 3.7-4.8 3.7-4.8-1.5-4.8-3.7z" opacity=".6" />
    </svg>
  );
  if (!withWordmark) return mark;
  return (
    <Group gap={8} wrap="nowrap" align="center">
      {mark}
      <Text component="span" fw={700} fz={size * 0.6} lh={1} c="var(--mantine-color-text)">
        Cairn
      </Text>
    </Group>
  );
}
