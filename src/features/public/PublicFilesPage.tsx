import { ActionIcon, Anchor, Breadcrumbs, Button, Group, Image, Modal, Paper, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, TextInput, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { type MouseEvent, useEffect, useMemo, useState } from 'react';
import { formatBytes, formatFileType } from '../../domain/formatting';
import { downloadPublicFile, folderPath, listChildren, PublicVaultError } from '../../public/publicProjection';
import type { NodeRecord } from '../../storage/vaultRecords';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconDownload, IconFile, IconFolder, IconPlus } from '../../ui/icons';
import { showErrorSnackbar } from '../../ui/snackbar';
import { TextPreview } from '../files/viewer/TextPreview';
import { useObjectUrl } from '../files/viewer/useObjectUrl';
import { publicFolderHref, type PublicView } from './publicHref';
import { PublicNodeIcon, usePublicThumbnailUrl } from './PublicNodeIcon';
import { usePublicVault } from './PublicVaultContext';

type KindFilter = 'all' | 'folders' | 'files' | 'images';

export function PublicAssetsPage() {
  return <PublicFilesPage view="assets" />;
}

export function PublicGalleryPage() {
  return <PublicFilesPage view="gallery" />;
}

/** The vault root or a folder of a public vault, as a list (assets) or a grid of images (gallery). */
export function PublicFilesPage({ view }: { view: PublicView }) {
  const params = useParams({ strict: false }) as { status: string; vaultId: string; folderId?: string };
  const { file: openFileId } = useSearch({ strict: false }) as { file?: string };
  const folderId = params.folderId ?? null;
  // Filters reset when the path changes (spec 001 section 2): the panel remounts per path.
  return <PublicFolder key={`${view}/${folderId ?? ''}`} view={view} status={params.status} vaultId={params.vaultId} folderId={folderId} openFileId={openFileId ?? null} />;
}

interface FolderProps {
  view: PublicView;
  status: string;
  vaultId: string;
  folderId: string | null;
  openFileId: string | null;
}

function PublicFolder({ view, status, vaultId, folderId, openFileId }: FolderProps) {
  const { state } = usePublicVault();
  const navigate = useNavigate();
  const [nameFilter, setNameFilter] = useState('');
  const [kind, setKind] = useState<KindFilter>('all');
  const path = folderPath(state, folderId);
  const isUnknownFolder = folderId !== null && path.length === 0;
  const children = useMemo(() => listChildren(state, folderId), [state, folderId]);
  const shown = children.filter((node) => {
    if (nameFilter && !node.name.toLocaleLowerCase().includes(nameFilter.toLocaleLowerCase())) return false;
    if (kind === 'folders') return node.kind === 'folder';
    if (kind === 'files') return node.kind === 'file';
    if (kind === 'images') return node.kind === 'file' && node.mimeType.startsWith('image/');
    return true;
  });
  const openFile = openFileId ? state.nodes.get(openFileId) : undefined;

  const folderLink = (id: string | null) => {
    const href = publicFolderHref(view, status, vaultId, id);
    return {
      href,
      onClick: (event: MouseEvent) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        void navigate({ href });
      },
    };
  };

  const setOpenFile = (id: string | null) => {
    const href = publicFolderHref(view, status, vaultId, folderId);
    void navigate({ href: id ? `${href}?file=${encodeURIComponent(id)}` : href });
  };

  if (isUnknownFolder) {
    return <EmptyPanel icon={<IconFolder size={24} />} title="This folder does not exist." description={<Anchor {...folderLink(null)}>Back to the vault</Anchor>} />;
  }

  return (
    <Stack gap="md">
      <nav aria-label="Folder path">
      <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap' }}>
        <Anchor {...folderLink(null)}>
          {state.vault.name || 'Vault'}
        </Anchor>
        {path.map((folder, i) =>
          i === path.length - 1 ? (
            <Text key={folder.id} aria-current="page" style={{ overflowWrap: 'anywhere' }}>
              {folder.name}
            </Text>
          ) : (
            <Anchor key={folder.id} {...folderLink(folder.id)}>
              {folder.name}
            </Anchor>
          ),
        )}
      </Breadcrumbs>
      </nav>

      <Paper withBorder p="sm" radius="md" component="section" aria-label="Filters">
        <Group gap="sm" align="end" wrap="wrap">
          <TextInput label="Filter by name" value={nameFilter} onChange={(e) => setNameFilter(e.currentTarget.value)} flex="1 1 180px" />
          <Select
            label="Show"
            value={kind}
            onChange={(value) => setKind((value as KindFilter | null) ?? 'all')}
            data={[
              { value: 'all', label: 'Everything' },
              { value: 'folders', label: 'Folders' },
              { value: 'files', label: 'Files' },
              { value: 'images', label: 'Images' },
            ]}
            allowDeselect={false}
            w={150}
          />
          <SegmentedControl
            color="cairn"
            aria-label="View"
            value={view}
            onChange={(value) => void navigate({ href: publicFolderHref(value === 'gallery' ? 'gallery' : 'assets', status, vaultId, folderId) })}
            data={[
              { value: 'assets', label: 'List' },
              { value: 'gallery', label: 'Gallery' },
            ]}
          />
        </Group>
      </Paper>

      {shown.length === 0 ? (
        <EmptyPanel
          icon={<IconFolder size={24} />}
          title={children.length === 0 ? 'This folder is empty.' : 'Nothing matches these filters.'}
          description={children.length === 0 ? 'Files added to this public vault will appear here.' : 'Change the filters to see more.'}
        />
      ) : view === 'assets' ? (
        <Table highlightOnHover verticalSpacing="sm" aria-label="Files and folders">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th visibleFrom="xs">Type</Table.Th>
              <Table.Th>Size</Table.Th>
              <Table.Th w={48}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((node) => (
              <Table.Tr key={node.id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  {node.kind === 'folder' ? (
                    <Anchor {...folderLink(node.id)}>
                      <Group gap={8} wrap="nowrap">
                        <IconFolder size={18} aria-hidden />
                        {node.name}
                      </Group>
                    </Anchor>
                  ) : (
                    <UnstyledButton onClick={() => setOpenFile(node.id)} aria-label={`Open ${node.name}`}>
                      <Group gap={8} wrap="nowrap">
                        <PublicNodeIcon node={node} size={18} thumbnailSize={32} />
                        <Text inherit>{node.name}</Text>
                      </Group>
                    </UnstyledButton>
                  )}
                </Table.Td>
                <Table.Td visibleFrom="xs">{node.kind === 'folder' ? 'Folder' : formatFileType(node.mimeType, node.name)}</Table.Td>
                <Table.Td>{formatBytes(node.size)}</Table.Td>
                <Table.Td>{node.kind === 'file' && <DownloadButton node={node} />}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <SimpleGrid cols={{ base: 2, xs: 3, md: 5 }} spacing="sm">
          {shown.map((node) =>
            node.kind === 'folder' ? (
              <Paper key={node.id} withBorder p="md" radius="md" component="a" {...folderLink(node.id)} style={{ textDecoration: 'none', color: 'inherit' }}>
                <Stack gap={6} align="center">
                  <IconFolder size={32} aria-hidden />
                  <Text size="sm" ta="center" style={{ overflowWrap: 'anywhere' }}>
                    {node.name}
                  </Text>
                </Stack>
              </Paper>
            ) : (
              <Paper key={node.id} withBorder p="xs" radius="md" component="button" type="button" onClick={() => setOpenFile(node.id)} aria-label={`Open ${node.name}`} style={{ cursor: 'pointer', background: 'none' }}>
                <Stack gap={6} align="center">
                  <GalleryThumb node={node} />
                  <Text size="sm" ta="center" style={{ overflowWrap: 'anywhere' }}>
                    {node.name}
                  </Text>
                </Stack>
              </Paper>
            ),
          )}
        </SimpleGrid>
      )}

      {/* The phone's floating add button, disabled: nobody adds through the public viewer (spec 001 section 2). */}
      <Tooltip label="Public links are read-only">
        <ActionIcon hiddenFrom="xs" disabled size={56} radius="xl" aria-label="Add an asset" pos="fixed" bottom={64 + 24} right={24} style={{ zIndex: 10 }}>
          <IconPlus size={24} />
        </ActionIcon>
      </Tooltip>

      <FilePreviewModal node={openFile?.kind === 'file' && openFile.status === 'ACTIVE' ? openFile : null} onClose={() => setOpenFile(null)} />
    </Stack>
  );
}

/** Images up to this size show as thumbnails in the gallery (fetched whole; public bytes are clear). */
const THUMB_MAX_BYTES = 8 * 1024 * 1024;

function GalleryThumb({ node }: { node: NodeRecord }) {
  const { state } = usePublicVault();
  // The uploader's thumbnail (R79, R79a) when the version has one; else a small image is fetched whole.
  const thumbnailUrl = usePublicThumbnailUrl(node);
  const hasThumbnail = node.latestVersionId !== null && state.versions.get(node.latestVersionId)?.thumbnail !== undefined;
  const isImage = !hasThumbnail && node.mimeType.startsWith('image/') && node.mimeType !== 'image/svg+xml' && node.size <= THUMB_MAX_BYTES;
  const [blob, setBlob] = useState<Blob | null>(null);
  useEffect(() => {
    if (!isImage) return;
    let isCurrent = true;
    downloadPublicFile(state, node.id).then(
      (b) => isCurrent && setBlob(b),
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [state, node.id, isImage]);
  const wholeUrl = useObjectUrl(blob, node.mimeType);
  const url = thumbnailUrl ?? wholeUrl;
  return url ? <Image src={url} alt="" h={96} w="100%" fit="cover" radius="sm" data-thumbnail={thumbnailUrl ? '' : undefined} /> : <IconFile size={32} aria-hidden />;
}

function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function errorText(error: unknown): string {
  return error instanceof PublicVaultError ? error.message : 'There was an error downloading the file.';
}

function DownloadButton({ node }: { node: NodeRecord }) {
  const { state } = usePublicVault();
  const [isBusy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      saveBlob(await downloadPublicFile(state, node.id), node.name);
    } catch (error) {
      showErrorSnackbar(errorText(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <ActionIcon variant="subtle" color="gray" loading={isBusy} onClick={() => void download()} aria-label={`Download ${node.name}`}>
      <IconDownload size={18} />
    </ActionIcon>
  );
}

/** The file viewer of the public area: image and text previews (inert), and Download. */
function FilePreviewModal({ node, onClose }: { node: NodeRecord | null; onClose: () => void }) {
  const { state } = usePublicVault();
  const [loaded, setLoaded] = useState<{ id: string; blob: Blob | null; error: string | null } | null>(null);
  const nodeId = node?.id ?? null;
  useEffect(() => {
    if (!nodeId) return;
    let isCurrent = true;
    setLoaded(null);
    downloadPublicFile(state, nodeId).then(
      (blob) => isCurrent && setLoaded({ id: nodeId, blob, error: null }),
      (error: unknown) => isCurrent && setLoaded({ id: nodeId, blob: null, error: errorText(error) }),
    );
    return () => {
      isCurrent = false;
    };
  }, [state, nodeId]);
  const current = loaded && loaded.id === nodeId ? loaded : null;
  const mime = node?.mimeType ?? '';
  const isImage = mime.startsWith('image/') && mime !== 'image/svg+xml';
  const isText = mime.startsWith('text/') || /\.(md|txt|csv|json)$/i.test(node?.name ?? '');
  const imageUrl = useObjectUrl(isImage ? (current?.blob ?? null) : null, mime);

  return (
    <Modal opened={node !== null} onClose={onClose} title={node?.name ?? ''} size="lg" fullScreen={false}>
      {node && (
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {formatFileType(node.mimeType, node.name)} · {formatBytes(node.size)}
          </Text>
          {!current ? (
            <Text size="sm">Loading the file…</Text>
          ) : current.error ? (
            <Text c="red" role="alert">
              {current.error}
            </Text>
          ) : isImage && imageUrl ? (
            <Image src={imageUrl} alt={node.name} fit="contain" mah="60vh" />
          ) : isText && current.blob ? (
            <TextPreview blob={current.blob} isMarkdown={/\.md$/i.test(node.name) || mime === 'text/markdown'} />
          ) : (
            <Text size="sm">There is no preview for this file type. Download it to open it.</Text>
          )}
          <Group justify="flex-end">
            <Button leftSection={<IconDownload size={18} />} disabled={!current?.blob} onClick={() => current?.blob && saveBlob(current.blob, node.name)}>
              Download
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
