import { useMemo, useRef, useState } from 'react';
import { keepBothName } from '../../../domain/fileNaming';
import { applyDuplicateChoices, type DuplicateChoice, findDuplicateIndexes, type PickedFile, type ResolvedUpload, toPickedFiles } from '../../../domain/uploadRules';
import type { NodeRecord } from '../../../storage/vaultRecords';
import { uploadFiles } from '../../../sync/vaultActions';
import { runWithErrorSnackbar } from '../../../ui/snackbar';
import { actionErrorText } from '../../vaults/vaultErrors';
import { DuplicateResolution } from './DuplicateResolution';
import { UploadConfirmModal } from './UploadConfirmModal';

/**
 * Pick (files or a folder), resolve duplicates against the folder's files, confirm, upload
 * (spec 000 section 4, upload flow). Returns the pickers to open and the dialogs to render.
 */
export function useUploadFlow(vaultId: string, folderId: string | null, children: NodeRecord[] | undefined) {
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<PickedFile[] | null>(null);
  const [duplicates, setDuplicates] = useState<{ index: number; name: string }[] | null>(null);
  const [resolved, setResolved] = useState<ResolvedUpload[] | null>(null);

  const existingFiles = useMemo(() => new Map((children ?? []).filter((n) => n.kind === 'file').map((n) => [n.name, n.id])), [children]);

  function onPicked(files: FileList | null) {
    const items = toPickedFiles(files ? Array.from(files) : []);
    if (fileInput.current) fileInput.current.value = '';
    if (folderInput.current) folderInput.current.value = '';
    if (items.length === 0) return;
    const clashes = findDuplicateIndexes(items, new Set(existingFiles.keys()));
    if (clashes.length === 0) {
      setResolved(items.map((i) => ({ file: i.file, path: i.path })));
      return;
    }
    setPicked(items);
    setDuplicates(clashes.map((index) => ({ index, name: items[index]!.file.name })));
  }

  function onResolve(choices: Map<number, DuplicateChoice>) {
    const items = applyDuplicateChoices(picked ?? [], choices, existingFiles, keepBothName);
    setDuplicates(null);
    setPicked(null);
    // Everything skipped closes the flow.
    if (items.length > 0) setResolved(items);
  }

  async function onConfirm(parentId: string | null) {
    const items = resolved ?? [];
    const ok = await runWithErrorSnackbar(() => uploadFiles(vaultId, parentId, items), actionErrorText('uploading files'));
    if (ok) setResolved(null);
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
      <DuplicateResolution duplicates={duplicates} onCancel={() => { setDuplicates(null); setPicked(null); }} onResolve={onResolve} />
      <UploadConfirmModal items={resolved} initialFolderId={folderId} onCancel={() => setResolved(null)} onConfirm={onConfirm} />
    </>
  );

  return {
    pickFiles: () => fileInput.current?.click(),
    pickFolder: () => folderInput.current?.click(),
    uploadDialogs: inputs,
  };
}
