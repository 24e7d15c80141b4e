import { Anchor, Button, Checkbox, Drawer, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { FILE_TYPES, NO_FILTERS, PERIODS, type Period, type TimelineFilters } from './timelineFilters';
import { ACTION_FILTERS } from './timelineText';

/** Lists show this many choices, then 'Show more' (spec 000 section 2, Vault room). */
const LIST_PREVIEW = 5;

interface Choice {
  value: string;
  label: string;
}

function CheckList({ title, choices, value, onChange }: { title: string; choices: readonly Choice[]; value: readonly string[]; onChange: (next: string[]) => void }) {
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

/**
 * The right-side filter drawer (336 px, 85% on mobile): Action, Members, File type and Period
 * (spec 000 section 2, Vault room; section 9, time filters).
 */
export function TimelineFilterDrawer({
  opened,
  onClose,
  filters,
  onChange,
  members,
}: {
  opened: boolean;
  onClose: () => void;
  filters: TimelineFilters;
  onChange: (next: TimelineFilters) => void;
  /** Authors to choose from: public signing key and name. */
  members: readonly Choice[];
}) {
  const isPhone = useMediaQuery('(max-width: 41.6875em)', undefined, { getInitialValueInEffect: false });
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size={isPhone ? '85%' : 336} title="Filter the timeline">
      <Stack gap="lg">
        <CheckList title="Action" choices={ACTION_FILTERS} value={filters.actions} onChange={(actions) => onChange({ ...filters, actions })} />
        <CheckList title="Members" choices={members} value={filters.members} onChange={(next) => onChange({ ...filters, members: next })} />
        <CheckList
          title="File type"
          choices={FILE_TYPES}
          value={filters.fileTypes}
          onChange={(fileTypes) => onChange({ ...filters, fileTypes: fileTypes as TimelineFilters['fileTypes'] })}
        />
        <Radio.Group label="Period" value={filters.period ?? 'any'} onChange={(value) => onChange({ ...filters, period: value === 'any' ? null : (value as Period) })}>
          <Stack gap={6} mt={6}>
            <Radio value="any" label="Any time" />
            {PERIODS.map((p) => (
              <Radio key={p.value} value={p.value} label={p.label} />
            ))}
          </Stack>
        </Radio.Group>
        <Group justify="space-between">
          <Button variant="subtle" color="gray" onClick={() => onChange(NO_FILTERS)}>
            Clear filters
          </Button>
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Drawer>
  );
}
