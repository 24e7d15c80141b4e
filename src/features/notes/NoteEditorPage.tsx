import { ActionIcon, Alert, Center, Group, Loader, Text, Title } from '@mantine/core';
import { Navigate, useNavigate, useParams, useRouterState } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { isMarkdownNote, noteFileName, noteTitleOf, SAVE_NOTE_ERROR, saveNoteLabel, UNSUPPORTED_NOTE_MESSAGE } from '../../domain/noteRules';
import type { NodeRecord, VersionRecord } from '../../storage/vaultRecords';
import { useNode, useStoreAccount, useVersions } from '../../storage/vaultStore';
import { saveNote } from '../../sync/noteActions';
import { confirmAction } from '../../ui/confirmAction';
import { IconArrowLeft } from '../../ui/icons';
import { runWithNameSnackbar } from '../files/fileCommands';
import { useDecryptedBlob } from '../files/viewer/useDecryptedBlob';
import { DeletedFile, PendingNode } from '../files/LinkedNodeStates';
import { useVaultRoom } from '../files/VaultRoomContext';
import { NoteForm } from './NoteForm';
import { type DraftSource, useNoteDraft } from './useNoteDraft';

/** The saveNote confirmation (spec 000 section 8), then the save; resolves once saved. */
function confirmSaveNote(isNew: boolean, name: string, save: () => Promise<void>) {
  confirmAction({
    title: saveNoteLabel(isNew),
    message: isNew ? `Save this note as "${name}"?` : `Save your changes as a new version of "${name}"?`,
    confirmLabel: saveNoteLabel(isNew),
    onConfirm: () => void save(),
  });
}

function NoteHeader({ title, onBack }: { title: string; onBack: () => void }) {
  return (
    <Group gap="xs" wrap="nowrap" mb="md" miw={0}>
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Back" onClick={onBack}>
        <IconArrowLeft size={20} />
      </ActionIcon>
      <Title order={1} fz={{ base: 18, xs: 22 }} miw={0} style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {title}
      </Title>
    </Group>
  );
}

function useBackToFolder() {
  const { vault, status } = useVaultRoom();
  const navigate = useNavigate();
  return (folderId: string | null) =>
    void (folderId
      ? navigate({ to: '/vaults/$status/$vaultId/assets/folders/$folderId', params: { status, vaultId: vault.vaultId, folderId } })
      : navigate({ to: '/vaults/$status/$vaultId/assets', params: { status, vaultId: vault.vaultId } }));
}

/** .../assets/create-note (router state carries folderId): a new note (spec 000 sections 2, 4). */
export function CreateNotePage() {
  const folderId = useRouterState({ select: (state) => state.location.state.folderId ?? null });
  const { vault, canUpload } = useVaultRoom();
  const accountId = useStoreAccount();
  const backTo = useBackToFolder();
  const source = useMemo<DraftSource>(() => ({ kind: 'new', vaultId: vault.vaultId, folderId }), [vault.vaultId, folderId]);
  const draft = useNoteDraft(accountId, source);

  function onSave(title: string, text: string) {
    const name = noteFileName(title, text)!;
    confirmSaveNote(true, name, async () => {
      const ok = await runWithNameSnackbar(() => saveNote({ vaultId: vault.vaultId, folderId, title, text }), SAVE_NOTE_ERROR);
      if (!ok) return;
      await draft.discard();
      backTo(folderId);
    });
  }

  return (
    <>
      <NoteHeader title="New note" onBack={() => backTo(folderId)} />
      {!canUpload && (
        <Alert color="yellow" mb="md">
          You cannot add to this vault.
        </Alert>
      )}
      <NoteForm draft={draft} saved={null} isDisabled={!canUpload} onSave={onSave} onCancel={() => backTo(folderId)} />
    </>
  );
}

/** .../{roomView}/note/{noteId}: edits a markdown note; saving adds a version (spec 000 sections 2, 4). */
export function EditNotePage() {
  const { noteId = '' } = useParams({ strict: false });
  const { vault, status } = useVaultRoom();
  const node = useNode(noteId);
  const versions = useVersions(noteId);
  const backTo = useBackToFolder();

  // A saved or e-mailed link: fetched on a new device, /404 once the server says it does not exist (R70).
  if (node === undefined) return <PendingNode nodeId={noteId} target="note" />;
  if (node.kind === 'file' && node.vaultId === vault.vaultId && node.status === 'DELETED') return <DeletedFile name={node.name} />;
  if (versions === undefined) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading note" />
      </Center>
    );
  }
  if (node.kind !== 'file' || node.vaultId !== vault.vaultId || node.status !== 'ACTIVE') {
    return <Navigate to="/vaults/$status/$vaultId/assets" params={{ status, vaultId: vault.vaultId }} replace />;
  }
  const latest = versions[0];
  if (!latest) {
    return (
      <>
        <NoteHeader title={node.name} onBack={() => backTo(node.parentId)} />
        <Text c="dimmed">This note is still uploading.</Text>
      </>
    );
  }
  if (!isMarkdownNote(node.name, latest.mimeTypeText)) {
    return (
      <>
        <NoteHeader title={node.name} onBack={() => backTo(node.parentId)} />
        <Alert color="red" role="alert">
          {UNSUPPORTED_NOTE_MESSAGE}
        </Alert>
      </>
    );
  }
  return <NoteVersionEditor key={latest.versionId} node={node} latest={latest} />;
}

/** Loads the latest version's text, then edits a draft based on it. */
function NoteVersionEditor({ node, latest }: { node: NodeRecord; latest: VersionRecord }) {
  const { vault, status, canEdit } = useVaultRoom();
  const accountId = useStoreAccount();
  const navigate = useNavigate();
  const backTo = useBackToFolder();
  const { blob, error, retry } = useDecryptedBlob(vault.vaultId, node.id, latest.versionId, { isUrgent: true });
  const [savedText, setSavedText] = useState<string | null>(null);
  useEffect(() => {
    let isCurrent = true;
    if (blob) void blob.text().then((text) => isCurrent && setSavedText(text));
    return () => {
      isCurrent = false;
    };
  }, [blob]);
  const savedTitle = noteTitleOf(node.name);
  const source = useMemo<DraftSource | null>(
    () =>
      savedText === null
        ? null
        : { kind: 'existing', vaultId: vault.vaultId, noteId: node.id, baseVersionId: latest.versionId, savedTitle, savedText },
    [savedText, vault.vaultId, node.id, latest.versionId, savedTitle],
  );
  const draft = useNoteDraft(accountId, source);
  const back = () => backTo(node.parentId);

  function onSave(title: string, text: string) {
    confirmSaveNote(false, node.name, async () => {
      const ok = await runWithNameSnackbar(
        () => saveNote({ vaultId: vault.vaultId, folderId: node.parentId, title, text, existing: { noteId: node.id, name: node.name } }),
        SAVE_NOTE_ERROR,
      );
      if (!ok) return;
      await draft.discard();
      void navigate({ to: '/vaults/$status/$vaultId/stack/$stackId', params: { status, vaultId: vault.vaultId, stackId: node.id } });
    });
  }

  return (
    <>
      <NoteHeader title={node.name} onBack={back} />
      {error ? (
        <Alert color="red" role="alert" title="The note could not be opened">
          {error === 'offline' ? 'This note is not available offline.' : 'Try again in a moment.'}{' '}
          <Text span c="blue" style={{ cursor: 'pointer' }} onClick={retry}>
            Try again
          </Text>
        </Alert>
      ) : savedText === null ? (
        <Center py="xl">
          <Loader aria-label="Loading note" />
        </Center>
      ) : (
        <NoteForm draft={draft} saved={{ title: savedTitle, text: savedText }} isDisabled={!canEdit} onSave={onSave} onCancel={back} />
      )}
    </>
  );
}
