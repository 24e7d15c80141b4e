import { ActionIcon, Box, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation, useNavigate, useParams } from '@tanstack/react-router';
import { stepGalleryIndex } from '../../../domain/galleryWindow';
import { useFolderPath, useVersions } from '../../../storage/vaultStore';
import { EmptyPanel } from '../../../ui/EmptyPanel';
import { IconArrowLeft, IconChevronRight, IconDownload, IconFile } from '../../../ui/icons';
import { downloadNodes } from '../fileCommands';
import { FilePreview } from '../FilePreview';
import { useVaultRoom } from '../VaultRoomContext';
import { GalleryStrip } from './GalleryStrip';
import { useGalleryItems } from './useGalleryItems';
import { isPageKey, useWindowKeyDown } from '../../../ui/pageKeys';

/**
 * .../gallery and .../gallery/folders/$folderId#versionId: a folder's images and videos, one
 * large with a thumbnail strip (spec 000 sections 2 and 9). The fragment names the version shown.
 */
export function GalleryPage() {
  const { folderId: folderParam } = useParams({ strict: false });
  const folderId = folderParam ?? null;
  const { vault, status } = useVaultRoom();
  const vaultId = vault.vaultId;
  const navigate = useNavigate();
  const hash = useLocation({ select: (location) => location.hash.replace(/^#/, '') });
  const items = useGalleryItems(vaultId, folderId);
  const path = useFolderPath(vaultId, folderId);
  const folderName = folderId ? (path.at(-1)?.name ?? '') : vault.name || 'Untitled vault';
  const found = items?.findIndex((n) => n.latestVersionId === hash) ?? -1;
  const current = found >= 0 ? found : 0;
  const node = items?.[current];
  const version = useVersions(node?.id ?? '')?.find((v) => v.versionId === node?.latestVersionId);

  const backToFolder = () =>
    folderId === null
      ? navigate({ to: '/vaults/$status/$vaultId/assets', params: { status, vaultId } })
      : navigate({ to: '/vaults/$status/$vaultId/assets/folders/$folderId', params: { status, vaultId, folderId } });
  const show = (index: number) => {
    const target = items?.[index];
    if (!target?.latestVersionId || index === current) return;
    // replace: moving through photos should not fill the back button's history.
    void navigate({ to: '.', hash: target.latestVersionId, replace: true });
  };

  useWindowKeyDown((event) => {
    if (!isPageKey(event)) return;
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      show(stepGalleryIndex(current, event.key === 'ArrowLeft' ? -1 : 1, items?.length ?? 0));
    } else if (event.key === 'Escape') {
      void backToFolder();
    }
  });

  const renderBack = (props: Record<string, unknown>) =>
    folderId === null ? (
      <Link to="/vaults/$status/$vaultId/assets" params={{ status, vaultId }} {...props} />
    ) : (
      <Link to="/vaults/$status/$vaultId/assets/folders/$folderId" params={{ status, vaultId, folderId }} {...props} />
    );
  const header = (
    <Group justify="space-between" wrap="nowrap" gap="sm" mb="sm">
      <Group gap="xs" wrap="nowrap" miw={0}>
        <ActionIcon renderRoot={renderBack} variant="subtle" color="gray" size="lg" aria-label="Back to the folder">
          <IconArrowLeft size={20} />
        </ActionIcon>
        <Stack gap={0} miw={0}>
          <Title order={1} fz={{ base: 18, xs: 22 }} style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {node?.name ?? folderName}
          </Title>
          <Text size="sm" c="dimmed" truncate>
            {items && items.length > 0 ? `${folderName} · ${current + 1} of ${items.length}` : folderName}
          </Text>
        </Stack>
      </Group>
      {node && (
        <Button leftSection={<IconDownload size={16} />} variant="default" onClick={() => void downloadNodes(vaultId, [node])} aria-label={`Download ${node.name}`} style={{ flexShrink: 0 }}>
          <Text span inherit visibleFrom="xs">
            Download
          </Text>
        </Button>
      )}
    </Group>
  );

  if (items === undefined) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading the gallery" />
      </Center>
    );
  }
  if (!node) {
    return (
      <>
        {header}
        <EmptyPanel icon={<IconFile size={32} />} title="No images or videos here" description="Upload images or videos to this folder to see them in the gallery." />
      </>
    );
  }

  return (
    <>
      {header}
      <Box pos="relative" component="section" aria-label="Current item" aria-live="polite" h={{ base: 'calc(100dvh - 380px)', sm: 'calc(100dvh - 280px)' }} mih={240} bg="var(--mantine-color-default-hover)" style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}>
        <Center h="100%">
          {version ? (
            <FilePreview key={version.versionId} vaultId={vaultId} fileId={node.id} versionId={version.versionId} name={node.name} mimeType={version.mimeTypeText} size={version.size} isStage />
          ) : (
            <Loader aria-label="Loading file" />
          )}
        </Center>
        <ActionIcon size="xl" radius="xl" variant="default" aria-label="Previous" disabled={current === 0} onClick={() => show(current - 1)} pos="absolute" left={8} top="50%" style={{ transform: 'translateY(-50%)' }}>
          <IconChevronRight size={22} style={{ transform: 'rotate(180deg)' }} />
        </ActionIcon>
        <ActionIcon size="xl" radius="xl" variant="default" aria-label="Next" disabled={current === items.length - 1} onClick={() => show(current + 1)} pos="absolute" right={8} top="50%" style={{ transform: 'translateY(-50%)' }}>
          <IconChevronRight size={22} />
        </ActionIcon>
      </Box>
      <Box mt="sm">
        <GalleryStrip vaultId={vaultId} items={items} current={current} onSelect={show} />
      </Box>
    </>
  );
}
