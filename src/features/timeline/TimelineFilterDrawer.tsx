import { Button, Drawer, Group, Radio, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { FilterCheckList as CheckList, type FilterChoice as Choice } from '../../ui/FilterCheckList';
import { FILE_TYPES, NO_FILTERS, PERIODS, type Period, type TimelineFilters } from './timelineFilters';
import { ACTION_FILTERS } from './timelineText';

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
