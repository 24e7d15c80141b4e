import { useMemo, useRef, useState } from 'react';
import { keepBothName } from '../../../domain/fileNaming';
import { nameKey } from '../../../domain/nodeNames';
import { applyDuplicateChoices, type DuplicateChoice, findDuplicateIndexes, NOT_KEPT_NOTICE_MS, notKeptText, type PickedFile, type ResolvedUpload, toPickedFiles } from '../../../domain/uploadRules';
import { IMPORT_CANCELLED_TEXT, IMPORT_FAILED_TEXT } from '../../../domain/importTxRules';
import { emptyZipText, isZipFileName, notZipText, unreadableZipText } from '../../../domain/zipUnpackRules';
import type { NodeRecord } from '../../../storage/vaultRecords';
import { uploadFiles } from '../../../sync/vaultActions';
import { runWithErrorSnackbar, showErrorSnackbar, showSnackbar } from '../../../ui/snackbar';
import { authService } from '../../account/authService';
import { actionErrorText } from '../../vaults/vaultErrors';
import { useVaultRoom } from '../VaultRoomContext';
import { DuplicateResolution } from './DuplicateResolution';
import { ImportTxModal } from './ImportTxModal';
import { NotUploadedModal } from './NotUploadedModal';
import { addUnpackFailures, type NotUploadedFile } from './unpackFailureStore';
import { unpackWithNotice } from './unpackWithNotice';
import { UploadConfirmModal } from './UploadConfirmModal';
import { showUploadPendingNotice } from './uploadPendingNotice';

/**
 * Pick (files, a folder or a .zip to unpack), resolve duplicates against the folder's files,
 * confirm, upload (spec 000 section 4, upload flow). A zip's entries take the folder-upload path,
 * as if the archive's root had been picked as a folder. Returns the pickers and the dialogs.
 */
export function useUploadFlow(vaultId: string, folderId: string | null, children: NodeRecord[] | undefined) {
  const { vault } = useVaultRoom();
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const zipInput = useRef<HTMLInputElement>(null);
  const versionInput = useRef<HTMLInputElement>(null);
  /** The file 'Add new version' adds to, while its picker is open. */
  const versionTarget = useRef<NodeRecord | null>(null);
  const [picked, setPicked] = useState<PickedFile[] | null>(null);
  const [duplicates, setDuplicates] = useState<{ index: number; name: string }[] | null>(null);
  const [resolved, setResolved] = useState<ResolvedUpload[] | null>(null);
  /** Duplicates of a pick, asked about in the upload dialog itself (with `picked` kept for them). */
  const [confirmDuplicates, setConfirmDuplicates] = useState<{ index: number; name: string }[] | null>(null);
  /** Entries of the picked archive that could not be unpacked, reported with its batch. */
  const [notUnpacked, setNotUnpacked] = useState<NotUploadedFile[]>([]);
  /** The picked archive's folders that hold no file: created with its batch, as they were. */
  const emptyFolders = useRef<string[][]>([]);
  /** An archive none of whose files could be unpacked: reported at once. */
  const [nothingUnpacked, setNothingUnpacked] = useState<NotUploadedFile[] | null>(null);
  const [isImportTxOpen, setImportTxOpen] = useState(false);
  /**
   * The batch comes from an import: the import modal was its confirmation and the destination is
   * the folder it was opened in, so after duplicates it is queued without the upload dialog.
   */
  const isImportBatch = useRef(false);

  const existingFiles = useMemo(() => new Map((children ?? []).filter((n) => n.kind === 'file').map((n) => [nameKey(n.name), n.id])), [children]);

  function start(items: PickedFile[], failures: NotUploadedFile[], isImport = false, folders: string[][] = []) {
    setNotUnpacked(failures);
    emptyFolders.current = folders;
    isImportBatch.current = isImport;
    const clashes = findDuplicateIndexes(items, new Set(existingFiles.keys()));
    if (clashes.length === 0) {
      proceed(items.map((i) => ({ file: i.file, path: i.path })));
      return;
    }
    setPicked(items);
    const found = clashes.map((index) => ({ index, name: items[index]!.file.name }));
    // An import has no upload dialog: it asks on its own. A pick asks in the upload dialog.
    if (isImport) {
      setDuplicates(found);
    } else {
      setConfirmDuplicates(found);
      setResolved(items.map((i) => ({ file: i.file, path: i.path })));
    }
  }

  function clearInputs() {
    for (const input of [fileInput, folderInput, zipInput, versionInput]) if (input.current) input.current.value = '';
  }

  function onPicked(files: FileList | null) {
    const items = toPickedFiles(files ? Array.from(files) : []);
    clearInputs();
    if (items.length > 0) start(items, []);
  }

  /** 'Add new version': the picked file becomes the target's next version, under the target's name. */
  function onVersionPicked(files: FileList | null) {
    const file = files?.[0];
    const target = versionTarget.current;
    clearInputs();
    versionTarget.current = null;
    // Nothing of an archive whose upload dialog was closed comes along with the version.
    setNotUnpacked([]);
    emptyFolders.current = [];
    if (file && target) setResolved([{ file, path: [], replaceFileId: target.id, name: target.name }]);
  }

  async function onZipPicked(files: FileList | null) {
    const zip = files?.[0];
    clearInputs();
    if (!zip) return;
    // The picker's filter can be bypassed ('All files'): the name decides (spec 000 section 5).
    if (!isZipFileName(zip.name)) {
      showErrorSnackbar(notZipText(zip.name));
      return;
    }
    try {
      const result = await unpackWithNotice(zip);
      if (!result) return;
      if (result.files.length > 0) start(result.files, result.failures, false, result.emptyFolders);
      else if (result.failures.length > 0) setNothingUnpacked(result.failures);
      else showErrorSnackbar(emptyZipText(zip.name));
    } catch (error) {
      console.warn('Unpacking failed', error);
      showErrorSnackbar(unreadableZipText(zip.name));
    }
  }

  function onResolve(choices: Map<number, DuplicateChoice>) {
    const items = applyDuplicateChoices(picked ?? [], choices, existingFiles, keepBothName);
    setDuplicates(null);
    setPicked(null);
    // Everything skipped closes the flow.
    if (items.length > 0) proceed(items);
  }

  /** Picks and unpacked archives go to the upload dialog; an import is queued at once. */
  function proceed(items: ResolvedUpload[]) {
    if (isImportBatch.current) void queue(folderId, items);
    else setResolved(items);
  }

  function onConfirm(parentId: string | null, choices: Map<number, DuplicateChoice>) {
    if (!confirmDuplicates) return queue(parentId, resolved ?? []);
    const items = applyDuplicateChoices(picked ?? [], choices, existingFiles, keepBothName);
    // Everything skipped closes the flow.
    if (items.length > 0) return queue(parentId, items);
    closeConfirm();
    return Promise.resolve();
  }

  function closeConfirm() {
    setResolved(null);
    setConfirmDuplicates(null);
    setPicked(null);
  }

  async function queue(parentId: string | null, items: ResolvedUpload[]) {
    let batchId = null as string | null;
    const ok = await runWithErrorSnackbar(async () => {
      const queued = await uploadFiles(vaultId, parentId, items, emptyFolders.current);
      batchId = queued.batchId;
      void queued.notKept.then((names) => names.length > 0 && showSnackbar(notKeptText(names), NOT_KEPT_NOTICE_MS));
    }, isImportBatch.current ? IMPORT_FAILED_TEXT : actionErrorText('uploading files'));
    if (!ok) return;
    if (batchId) addUnpackFailures(batchId, notUnpacked);
    setNotUnpacked([]);
    emptyFolders.current = [];
    closeConfirm();
    if (!vault.isCloud && authService.getSnapshot().user?.notifyOnUpload) showUploadPendingNotice();
  }

  const inputs = (
    <>
      <input ref={fileInput} type="file" multiple hidden aria-hidden tabIndex={-1} onChange={(e) => onPicked(e.currentTarget.files)} />
      <input
        ref={folderInput}
        type="file"
        multiple
        hidden
        aria-hidden
        tabIndex={-1}
        {...({ webkitdirectory: '', directory: '' } as Record<string, string>)}
        onChange={(e) => onPicked(e.currentTarget.files)}
      />
      <input ref={versionInput} type="file" hidden aria-hidden tabIndex={-1} onChange={(e) => onVersionPicked(e.currentTarget.files)} />
      <input ref={zipInput} type="file" accept=".zip,application/zip" hidden aria-hidden tabIndex={-1} onChange={(e) => void onZipPicked(e.currentTarget.files)} />
      <DuplicateResolution
        duplicates={duplicates}
        onCancel={() => {
          setDuplicates(null);
          setPicked(null);
          if (isImportBatch.current) showSnackbar(IMPORT_CANCELLED_TEXT);
        }}
        onResolve={onResolve}
      />
      <UploadConfirmModal items={resolved} duplicates={confirmDuplicates} initialFolderId={folderId} onCancel={closeConfirm} onConfirm={onConfirm} />
      <ImportTxModal opened={isImportTxOpen} onClose={() => setImportTxOpen(false)} onImported={(file) => start([{ file, path: [] }], [], true)} />
      <NotUploadedModal
        opened={nothingUnpacked !== null}
        uploaded={0}
        total={nothingUnpacked?.length ?? 0}
        failures={nothingUnpacked ?? []}
        canRetry={false}
        onClose={() => setNothingUnpacked(null)}
        onRetry={() => setNothingUnpacked(null)}
      />
    </>
  );

  return {
    pickFiles: () => fileInput.current?.click(),
    pickFolder: () => folderInput.current?.click(),
    /**
     * Upload zip & unpack, in every vault: the archive is unpacked on this device, so in a private
     * vault its entries are sealed and encrypted like any picked file (issue 19; the spec's
     * public-only rule came from unpacking on the server).
     */
    pickZip: () => zipInput.current?.click(),
    /** Import > Network transaction: public permanent vaults only (spec 000 section 2). */
    openImportTx: vault.isPublic && !vault.isCloud ? () => setImportTxOpen(true) : null,
    /** Add new version of `file` (spec 000 section 6: not for notes, nor manifest.json). */
    pickVersion: (file: NodeRecord) => {
      versionTarget.current = file;
      versionInput.current?.click();
    },
    uploadDialogs: inputs,
  };
}
