import { Badge, Group, NavLink, Stack, Text } from '@mantine/core';
import { orderVersions } from '../../../domain/filePreviewRules';
import { formatBytes, formatDateTime } from '../../../domain/formatting';
import type { VersionRecord } from '../../../storage/vaultRecords';

interface VersionListProps {
  /** Newest first. */
  versions: readonly VersionRecord[];
  selectedId: string | undefined;
  onSelect: (versionId: string) => void;
}

/** Number, date and size of each version; the selected one first (spec 000 section 4). */
export function VersionList({ versions, selectedId, onSelect }: VersionListProps) {
  const latestId = versions[0]?.versionId;
  const ordered = orderVersions(versions, selectedId ?? latestId);
  return (
    <Stack gap={2} component="nav" aria-label="Versions">
      {ordered.map((version) => {
        const isSelected = version.versionId === (selectedId ?? latestId);
        return (
          <NavLink
            key={version.versionId}
            component="button"
            onClick={() => onSelect(version.versionId)}
            active={isSelected}
            aria-current={isSelected ? 'true' : undefined}
            label={
              <Group gap={6}>
                <Text size="sm" fw={600}>
                  Version {version.number}
                </Text>
                {version.versionId === latestId && (
                  <Badge size="xs" variant="light">
                    Latest
                  </Badge>
                )}
              </Group>
            }
            description={`${formatDateTime(version.createdAt)} · ${formatBytes(version.size)}`}
          />
        );
      })}
    </Stack>
  );
}
