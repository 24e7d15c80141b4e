import { ActionIcon, Anchor, Badge, Group, Text } from '@mantine/core';
import type { MouseEvent, ReactNode } from 'react';
import type { NodeRecord } from '../../storage/vaultRecords';
import { IconFile, IconFolder, IconX } from '../../ui/icons';
import { dismissRejection } from '../../sync/vaultActions';
import { runWithErrorSnackbar } from '../../ui/snackbar';
import classes from './FileRow.module.css';

interface NodeNameProps {
  node: NodeRecord;
  /** Renders the router link that opens the item (Mantine `renderRoot`); plain text when absent. */
  renderLink?: (props: Record<string, unknown>) => ReactNode;
  /** For the link and the dismiss button: -1 outside the list's current row. */
  tabIndex?: number;
}

// Plain elements with Mantine's own classes rather than Stack, Group and Anchor: this renders in
// every row of a list scrolled at thousands of pixels a second (see FileRow).
const LINK_CLASS = `mantine-focus-auto ${Anchor.classes.root} ${Text.classes.root} ${classes.name}`;
const TEXT_CLASS = `${Text.classes.root} ${classes.name}`;

/** Icon, name (text only), a 'Syncing…' badge while operations wait, and a dismissible rejection. */
export function NodeName({ node, renderLink, tabIndex }: NodeNameProps) {
  const rejection = node.rejection;
  const Icon = node.kind === 'folder' ? IconFolder : IconFile;
  return (
    <>
      <div className={classes.line}>
        <Icon size={18} className={classes.icon} />
        {renderLink ? (
          renderLink({
            className: LINK_CLASS,
            'data-underline': 'hover',
            'data-truncate': 'end',
            tabIndex,
            onClick: (e: MouseEvent) => e.stopPropagation(),
            children: node.name,
          })
        ) : (
          <span className={TEXT_CLASS} data-truncate="end">
            {node.name}
          </span>
        )}
        {node.pendingOpIds.length > 0 && (
          <Badge size="xs" variant="light" color="gray" style={{ flexShrink: 0 }}>
            Syncing…
          </Badge>
        )}
      </div>
      {rejection && (
        <Group gap={4} wrap="nowrap" role="alert" mt={2}>
          <Text size="xs" c="red">
            {rejection.message}
          </Text>
          <ActionIcon size="xs" variant="subtle" color="red" aria-label="Dismiss" tabIndex={tabIndex} onClick={(e) => { e.stopPropagation(); void runWithErrorSnackbar(() => dismissRejection(rejection.opId), 'There was an error.'); }}>
            <IconX size={12} />
          </ActionIcon>
        </Group>
      )}
    </>
  );
}
