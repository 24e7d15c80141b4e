import { ActionIcon, Alert, Group, Title } from '@mantine/core';
import { Link, Navigate } from '@tanstack/react-router';
import { FILE_DELETED_TEXT, FILE_DELETED_TITLE } from '../../domain/linkTargetRules';
import { getDb } from '../../storage/db';
import { getNode, getStoreAccount } from '../../storage/vaultStore';
import { useAbsentOnServer } from '../../sync/useAbsentOnServer';
import { IconArrowLeft } from '../../ui/icons';
import { LinkPending } from './LinkPending';
import { useVaultRoom } from './VaultRoomContext';

/** A file or note link the device cannot open yet: fetching, then /404 once the server says it does not exist (R70). */
export function PendingNode({ nodeId, target }: { nodeId: string; target: 'file' | 'note' }) {
  const isAbsent = useAbsentOnServer(`node:${nodeId}`, true, async () => {
    const accountId = getStoreAccount();
    return accountId !== null && (await getNode(getDb(), accountId, nodeId)) !== undefined;
  });
  if (isAbsent) return <Navigate to="/404" replace />;
  return <LinkPending target={target} />;
}

/**
 * R71: a saved link to a file deleted for good names the file and says it was deleted, with no
 * preview and no Download (its content is gone from the server; a download could only fail).
 */
export function DeletedFile({ name }: { name: string }) {
  const { vault, status } = useVaultRoom();
  return (
    <>
      <Group gap="xs" wrap="nowrap" mb="md" miw={0}>
        <ActionIcon
          renderRoot={(props) => <Link to="/vaults/$status/$vaultId/assets" params={{ status, vaultId: vault.vaultId }} {...props} />}
          variant="subtle"
          color="gray"
          size="lg"
          aria-label="Back to the files"
        >
          <IconArrowLeft size={20} />
        </ActionIcon>
        <Title order={1} fz={{ base: 18, xs: 22 }} miw={0} style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {name}
        </Title>
      </Group>
      <Alert color="gray" role="alert" title={FILE_DELETED_TITLE}>
        {FILE_DELETED_TEXT}
      </Alert>
    </>
  );
}
