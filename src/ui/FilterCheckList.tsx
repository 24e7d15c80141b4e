import { Anchor, Checkbox, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';

/** Lists show this many choices, then 'Show more' (spec 000 section 2, Vault room). */
const LIST_PREVIEW = 5;

export interface FilterChoice {
  value: string;
  label: string;
}

/** One checkbox list of a filter drawer (Action, Members, File type): 5 choices, then 'Show more'. */
export function FilterCheckList({ title, choices, value, onChange }: { title: string; choices: readonly FilterChoice[]; value: readonly string[]; onChange: (next: string[]) => void }) {
  const [isAll, setAll] = useState(false);
  const shown = isAll ? choices : choices.slice(0, LIST_PREVIEW);
  return (
    <Stack gap={6} component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
      <Title order={3} fz="sm" component="legend" mb={6}>
        {title}
      </Title>
      {choices.length === 0 && (
        <Text size="sm" c="dimmed">
          Nobody yet
        </Text>
      )}
      {shown.map((choice) => (
        <Checkbox
          key={choice.value}
          label={choice.label}
          checked={value.includes(choice.value)}
          onChange={(e) => onChange(e.currentTarget.checked ? [...value, choice.value] : value.filter((v) => v !== choice.value))}
          styles={{ label: { overflowWrap: 'anywhere' } }}
        />
      ))}
      {choices.length > LIST_PREVIEW && (
        <Anchor component="button" type="button" size="sm" ta="left" onClick={() => setAll((a) => !a)}>
          {isAll ? 'Show less' : 'Show more'}
        </Anchor>
      )}
    </Stack>
  );
}
