import { ActionIcon, Button, Grid, Group, Paper, Text, Title } from '@mantine/core';
import { Link, Navigate, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { linkTargetView } from '../../domain/linkTargetRules';
import { isMarkdownNote } from '../../domain/noteRules';
import { useFolderChildren, useNode, useVersions } from '../../storage/vaultStore';
import { IconArrowLeft, IconDownload } from '../../ui/icons';
import { downloadNodes } from './fileCommands';
import { FilePreview } from './FilePreview';
import { PreviousNextFile } from './viewer/PreviousNextFile';
import { VersionList } from './viewer/VersionList';
import { ViewerFileActions } from './viewer/ViewerFileActions';
import { useVaultRoom } from './VaultRoomContext';
import { LinkPending } from './LinkPending';
import { DeletedFile, PendingNode } from './LinkedNodeStates';
import { copyPublicLink, publicFileLink } from '../public/shareLinks';
import { isPageKey, useWindowKeyDown } from '../../ui/pageKeys';

/** .../stack/$stackId?resourceVersion: a file with its versions (spec 000 sections 2 and 4, stack viewer). */
export function StackViewerPage() {
  const { stackId = '' } = useParams({ strict: false });
  const { resourceVersion } = useSearch({ strict: false });
  const { vault, status, canEdit } = useVaultRoom();
  const navigate = useNavigate();
  const node = useNode(stackId);
  const versions = useVersions(stackId);
  const parentId = node?.parentId ?? null;
  // The folder's files in the list's default order (by name), for previous and next.
  const siblings = useFolderChildren(vault.vaultId, parentId).nodes;
  const fileIds = useMemo(() => (siblings ?? []).filter((n) => n.kind === 'file').map((n) => n.id), [siblings]);
  const openFile = useCallback(
    // Replaces the entry: Back leaves the viewer for the folder instead of stepping through every file seen.
    (fileId: string) => void navigate({ to: '/vaults/$status/$vaultId/stack/$stackId', params: { status, vaultId: vault.vaultId, stackId: fileId }, replace: true }),
    [navigate, status, vault.vaultId],
  );

  const backTo = () =>
    parentId === null
      ? navigate({ to: '/vaults/$status/$vaultId/assets', params: { status, vaultId: vault.vaultId } })
      : navigate({ to: '/vaults/$status/$vaultId/assets/folders/$folderId', params: { status, vaultId: vault.vaultId, folderId: parentId } });

  // Escape goes back to the folder, as the file list's Escape goes back to the vaults.
  useWindowKeyDown((event) => {
    if (event.key === 'Escape' && isPageKey(event)) void backTo();
  });

  const renderBack = (props: Record<string, unknown>) =>
    parentId === null ? (
      <Link to="/vaults/$status/$vaultId/assets" params={{ status, vaultId: vault.vaultId }} {...props} />
    ) : (
      <Link to="/vaults/$status/$vaultId/assets/folders/$folderId" params={{ status, vaultId: vault.vaultId, folderId: parentId }} {...props} />
    );

  const view = linkTargetView(node, vault.vaultId);
  if (view === 'pending') return <PendingNode nodeId={stackId} target="file" />;
  if (view === 'elsewhere') return <Navigate to="/vaults/$status/$vaultId/assets" params={{ status, vaultId: vault.vaultId }} replace />;
  if (view === 'deleted' && node) return <DeletedFile name={node.name} />;
  if (!node || versions === undefined) return <LinkPending target="file" />;

  const latest = versions[0];
  const current = versions.find((v) => v.versionId === resourceVersion) ?? latest;
  const download = () => void downloadNodes(vault.vaultId, [node], current?.versionId);

  function selectVersion(versionId: string) {
    // The latest version has no parameter (spec 000 route table); a version is a place to come back to.
    void navigate({
      to: '/vaults/$status/$vaultId/stack/$stackId',
      params: { status, vaultId: vault.vaultId, stackId },
      search: versionId === latest?.versionId ? {} : { resourceVersion: versionId },
    });
  }

  return (
    <>
      {/* The name keeps at least 14rem: where the buttons would squeeze it (a phone), they move to a
          row of their own. A long name wraps to two lines, ending in an ellipsis; its title shows it whole. */}
      <Group justify="space-between" wrap="wrap" gap="sm" mb="md">
        <Group gap="xs" wrap="nowrap" miw={0} style={{ flex: '1 1 14rem' }}>
          <ActionIcon renderRoot={renderBack} variant="subtle" color="gray" size="lg" aria-label="Back to the folder">
            <IconArrowLeft size={20} />
          </ActionIcon>
          <Title order={1} fz={{ base: 18, xs: 22 }} miw={0} lineClamp={2} title={node.name} style={{ overflowWrap: 'anywhere' }}>
            {node.name}
          </Title>
        </Group>
        <Group gap="xs" wrap="nowrap" ml="auto" style={{ flexShrink: 0 }}>
          {canEdit && latest && isMarkdownNote(node.name, latest.mimeTypeText) && (
            <Button
              variant="light"
              renderRoot={(props) => (
                <Link to="/vaults/$status/$vaultId/$roomView/note/$noteId" params={{ status, vaultId: vault.vaultId, roomView: 'assets', noteId: node.id }} {...props} />
              )}
            >
              Edit note
            </Button>
          )}
          {/* 'Share' only for public vaults (spec 000 section 6). */}
          {vault.isPublic && (
            <Button variant="default" onClick={() => void copyPublicLink(publicFileLink(vault.vaultId, node))}>
              Share
            </Button>
          )}
          <PreviousNextFile fileIds={fileIds} currentId={node.id} onOpen={openFile} />
          <Button leftSection={<IconDownload size={16} />} variant="default" onClick={download} disabled={!current} aria-label={`Download ${node.name}`} style={{ flexShrink: 0 }}>
            <Text span inherit visibleFrom="xs">
              Download
            </Text>
          </Button>
          <ViewerFileActions node={node} siblings={siblings ?? []} versionId={current?.versionId} onHidden={() => void backTo()} />
        </Group>
      </Group>
      <Grid>
        <Grid.Col span={{ base: 12, sm: 8 }}>
          <Paper withBorder p={{ base: 'xs', xs: 'md' }} radius="md" aria-label="Preview" component="section">
            {current ? (
              <FilePreview
                key={current.versionId}
                vaultId={vault.vaultId}
                fileId={node.id}
                versionId={current.versionId}
                name={node.name}
                mimeType={current.mimeTypeText}
                size={current.size}
                onDownload={download}
              />
            ) : (
              <Text c="dimmed">This file is still uploading.</Text>
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <Text fw={700} mb="xs" component="h2" fz="md">
            Versions
          </Text>
          <VersionList versions={versions} selectedId={current?.versionId} onSelect={selectVersion} />
        </Grid.Col>
      </Grid>
    </>
  );
}
