import { ActionIcon, Badge, Button, Center, Grid, Group, Loader, NavLink, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, Navigate, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { formatBytes, formatDateTime } from '../../domain/formatting';
import { useNode, useVersions } from '../../storage/vaultStore';
import { IconArrowLeft, IconDownload } from '../../ui/icons';
import { downloadNodes } from './fileCommands';
import { FilePreview } from './FilePreview';
import { useVaultRoom } from './VaultRoomContext';

/** .../stack/$stackId?resourceVersion: a file with its versions (spec 000 section 4, stack viewer). */
export function StackViewerPage() {
  const { stackId = '' } = useParams({ strict: false });
  const { resourceVersion } = useSearch({ strict: false });
  const { vault, status } = useVaultRoom();
  const navigate = useNavigate();
  const node = useNode(stackId);
  const versions = useVersions(stackId);

  if (node === undefined || versions === undefined) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading file" />
      </Center>
    );
  }
  if (node.kind !== 'file' || node.vaultId !== vault.vaultId) return <Navigate to="/vaults/$status/$vaultId/assets" params={{ status, vaultId: vault.vaultId }} replace />;

  const latest = versions[0];
  const current = versions.find((v) => v.versionId === resourceVersion) ?? latest;
  // The selected version goes to the top of the list.
  const ordered = current ? [current, ...versions.filter((v) => v !== current)] : versions;
  const parentId = node.parentId;
  const renderBack = (props: Record<string, unknown>) =>
    parentId === null ? (
      <Link to="/vaults/$status/$vaultId/assets" params={{ status, vaultId: vault.vaultId }} {...props} />
    ) : (
      <Link to="/vaults/$status/$vaultId/assets/folders/$folderId" params={{ status, vaultId: vault.vaultId, folderId: parentId }} {...props} />
    );

  function selectVersion(versionId: string) {
    void navigate({
      to: '/vaults/$status/$vaultId/stack/$stackId',
      params: { status, vaultId: vault.vaultId, stackId },
      search: versionId === latest?.versionId ? {} : { resourceVersion: versionId },
      replace: true,
    });
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap" miw={0}>
          <ActionIcon renderRoot={renderBack} variant="subtle" color="gray" size="lg" aria-label="Back to files">
            <IconArrowLeft size={20} />
          </ActionIcon>
          <Title order={1} fz={{ base: 18, xs: 22 }} style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {node.name}
          </Title>
        </Group>
        <Button leftSection={<IconDownload size={16} />} variant="default" onClick={() => void downloadNodes(vault.vaultId, [node], current?.versionId)} disabled={!current}>
          Download
        </Button>
      </Group>
      <Grid>
        <Grid.Col span={{ base: 12, sm: 8 }}>
          <Paper withBorder p="md" radius="md">
            {current ? (
              <FilePreview vaultId={vault.vaultId} fileId={node.id} versionId={current.versionId} name={node.name} mimeType={current.mimeTypeText} size={current.size} />
            ) : (
              <Text c="dimmed">This file is still uploading.</Text>
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <Text fw={700} mb="xs">
            Versions
          </Text>
          <Stack gap={2} component="nav" aria-label="Versions">
            {ordered.map((version) => (
              <NavLink
                key={version.versionId}
                component="button"
                onClick={() => selectVersion(version.versionId)}
                active={version === current}
                label={
                  <Group gap={6}>
                    <Text size="sm">Version {version.number}</Text>
                    {version === latest && (
                      <Badge size="xs" variant="light">
                        Latest
                      </Badge>
                    )}
                  </Group>
                }
                description={`${formatDateTime(version.createdAt)} · ${formatBytes(version.size)}`}
              />
            ))}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
