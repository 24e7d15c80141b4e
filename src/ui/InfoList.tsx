import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** Label and value pairs of an info drawer; values are plain text (or a link, a badge). */
export function InfoList({ items }: { items: [label: string, value: ReactNode][] }) {
  return (
    <Stack gap="sm" component="dl" m={0}>
      {items.map(([label, value]) => (
        <div key={label}>
          <Text component="dt" size="xs" c="dimmed" fw={600}>
            {label}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ wordBreak: 'break-all' }}>
            {value}
          </Text>
        </div>
      ))}
    </Stack>
  );
}
