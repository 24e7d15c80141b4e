import { ActionIcon, Anchor, Badge, Box, Group, Text } from '@mantine/core';
import type { MouseEvent, ReactNode } from 'react';
import type { NodeRecord, UploadRecord } from '../../storage/vaultRecords';
import { IconX } from '../../ui/icons';
import { useSyncStatus } from '../../sync';
import { dismissRejection } from '../../sync/vaultActions';
import { runWithErrorSnackbar } from '../../ui/snackbar';
import classes from './FileRow.module.css';
import { NodeIcon } from './NodeIcon';
import { UploadMark } from './upload/PendingUploads';

interface NodeNameProps {
  node: NodeRecord;
  /** Renders the router link that opens the item (Mantine `renderRoot`); plain text when absent. */
  renderLink?: (props: Record<string, unknown>) => ReactNode;
  /** For the link and the dismiss button: -1 outside the list's current row. */
  tabIndex?: number;
  /** A new file still uploading: its upload state is its mark. */
  upload?: UploadRecord;
}

// Plain elements with Mantine's own classes rather than Stack, Group and Anchor: this renders in
// every row of a list scrolled at thousands of pixels a second (see FileRow).
const LINK_CLASS = `mantine-focus-auto ${Anchor.classes.root} ${Text.classes.root} ${classes.name}`;
const TEXT_CLASS = `${Text.classes.root} ${classes.name}`;

/**
 * 'Syncing…' while an item's operations wait ('Waiting to sync' offline): a badge from 668 px, a
 * labelled dot on phones, where the name needs the room. Only pending rows subscribe to the status.
 */
function PendingMark() {
  const label = useSyncStatus() === 'offline' ? 'Waiting to sync' : 'Syncing…';
  return (
    <>
      <Badge size="xs" variant="light" color="gray" visibleFrom="xs" style={{ flexShrink: 0 }}>
        {label}
      </Badge>
      <Box
        hiddenFrom="xs"
        role="img"
        aria-label={label}
        title={label}
        w={8}
        h={8}
        style={{ flexShrink: 0, borderRadius: '50%', background: 'var(--mantine-color-gray-5)' }}
      />
    </>
  );
}

/** Icon, name (text only), the pending or upload mark while either waits, and a dismissible rejection. */
export function NodeName({ node, renderLink, tabIndex, upload }: NodeNameProps) {
  const rejection = node.rejection;
  return (
    <>
      <div className={classes.line}>
        <NodeIcon node={node} size={18} thumbnailSize={32} className={classes.icon} />
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
        {upload ? <UploadMark upload={upload} /> : node.pendingOpIds.length > 0 && <PendingMark />}
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
