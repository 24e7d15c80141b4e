import { Badge, Group, Tooltip } from '@mantine/core';
import { IconCloud, IconInfinity, IconLock, IconWorld } from './icons';

/** `data-*` attributes passed through to the element (e.g. the vault room tour's targets). */
type DataAttributes = { [key: `data-${string}`]: string };

/** The Cloud or Permanent badge (spec 000 section 2). */
export function StorageBadge({ isCloud, ...data }: { isCloud: boolean } & DataAttributes) {
  return (
    <Badge {...data} variant="light" color={isCloud ? 'blue' : 'grape'} leftSection={isCloud ? <IconCloud size={12} /> : <IconInfinity size={12} />}>
      {isCloud ? 'Cloud' : 'Permanent'}
    </Badge>
  );
}

/** The Public or Private icon, with its name as tooltip and accessible label. */
export function PrivacyIcon({ isPublic, ...data }: { isPublic: boolean } & DataAttributes) {
  const label = isPublic ? 'Public' : 'Private';
  const Icon = isPublic ? IconWorld : IconLock;
  return (
    <Tooltip label={label}>
      <span {...data} style={{ display: 'inline-flex' }} tabIndex={0}>
        <Icon size={18} aria-label={label} />
      </span>
    </Tooltip>
  );
}

export function VaultBadges({ isCloud, isPublic }: { isCloud: boolean; isPublic: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <StorageBadge isCloud={isCloud} />
      <PrivacyIcon isPublic={isPublic} />
    </Group>
  );
}
