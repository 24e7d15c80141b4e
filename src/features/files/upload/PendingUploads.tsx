import { Badge } from '@mantine/core';
import { useMemo } from 'react';
import { pendingUploadText, uploadsOnTheWay } from '../../../domain/uploadRules';
import type { NodeRecord, UploadRecord } from '../../../storage/vaultRecords';
import { useNewFileUploadsInto, useUpload } from '../../../storage/vaultStore';
import { useSyncStatus } from '../../../sync';
import classes from '../FileRow.module.css';

/** A folder's new files still on their way: their rows, and each one's upload by row id. */
export interface PendingUploads {
  /** In picking order; the list sorts them among the folder's items. */
  rows: NodeRecord[];
  uploads: ReadonlyMap<string, UploadRecord>;
}

/** The row a new file shows as until its upload is done: the file it will be, with no version yet. */
function pendingRow(upload: UploadRecord): NodeRecord {
  return {
    accountId: upload.accountId,
    vaultId: upload.vaultId,
    id: upload.fileId,
    kind: 'file',
    parentId: upload.parentId,
    parentKey: upload.parentId ?? '',
    name: upload.name,
    status: 'ACTIVE',
    size: upload.size,
    mimeType: upload.fileType,
    versionCount: 1,
    latestVersionId: null,
    createdAt: upload.createdAt,
    updatedAt: upload.createdAt,
    pendingOpIds: [],
    rejection: null,
  };
}

/**
 * New files on their way into this folder (docs/SYNC_SPEC.md R7, R14) as rows of its list: they
 * show at once, offline too, and become the file's own row (same id) once their upload is done.
 * The rows change only when uploads come or go: progress re-renders each row's mark alone, never
 * the folder's page (UploadMark reads its upload itself).
 */
export function usePendingUploads(vaultId: string, folderId: string | null, children: NodeRecord[] | undefined, childrenReadAt: number): PendingUploads {
  const all = useNewFileUploadsInto(vaultId, folderId);
  const presentIds = useMemo(() => new Set(children?.map((n) => n.id)), [children]);
  const waiting = useMemo(() => uploadsOnTheWay(all, vaultId, folderId, presentIds, childrenReadAt), [all, vaultId, folderId, presentIds, childrenReadAt]);
  // What a row shows of its upload never changes, so the rows follow the set of uploads only.
  const signature = waiting.map((u) => u.uploadId).join();
  const rows = useMemo(() => waiting.map(pendingRow), [signature]);
  const uploads = useMemo(() => new Map(waiting.map((u) => [u.fileId, u])), [waiting]);
  return { rows, uploads };
}

/**
 * A pending row's mark: its upload state, or 'Waiting to upload' while nothing can move. Beside
 * the name, or under it on phones (FileRow.module.css).
 */
export function UploadMark({ upload }: { upload: UploadRecord }) {
  const isOffline = useSyncStatus() === 'offline';
  const live = useUpload(upload.uploadId) ?? upload;
  return (
    <Badge size="xs" variant="light" color="gray" className={classes.uploadMark}>
      {pendingUploadText(live, isOffline)}
    </Badge>
  );
}
