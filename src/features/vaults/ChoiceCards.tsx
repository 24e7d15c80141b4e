import { Group, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ComponentType } from 'react';
import type { IconProps } from '../../ui/icons';

export interface Choice<T extends string> {
  value: T;
  title: string;
  description: string;
  icon: ComponentType<IconProps>;
}

interface ChoiceCardsProps<T extends string> {
  label: string;
  choices: Choice<T>[];
  value: T | undefined;
  onChange: (value: T) => void;
}

/** Two or more radio cards (the wizard's storage and privacy choices). */
export function ChoiceCards<T extends string>({ label, choices, value, onChange }: ChoiceCardsProps<T>) {
  return (
    <Radio.Group value={value ?? null} onChange={(v) => onChange(v as T)} aria-label={label}>
      <SimpleGrid cols={{ base: 1, xs: choices.length }} spacing="md">
        {choices.map((choice) => (
          <Radio.Card key={choice.value} value={choice.value} radius="md" p="lg" h="100%" aria-label={choice.title} aria-description={choice.description}>
            <Group wrap="nowrap" align="flex-start" gap="md">
              <Radio.Indicator mt={2} />
              <Stack gap={6}>
                <Group gap="xs" wrap="nowrap">
                  <choice.icon size={20} />
                  <Text fw={700}>{choice.title}</Text>
                </Group>
                <Text size="sm" c="dimmed">
                  {choice.description}
                </Text>
              </Stack>
            </Group>
          </Radio.Card>
        ))}
      </SimpleGrid>
    </Radio.Group>
  );
}
