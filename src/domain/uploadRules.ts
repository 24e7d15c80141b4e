/**
 * Upload flow rules (spec 000 sections 4 and 5): picked entries, duplicate resolution, available
 * space and the progress box's summary.
 */

import { formatBytes } from './formatting';
import { nameKey } from './nodeNames';

export interface PickedFile {
  file: File;
  /** Folders from the picked folder down to the file (empty for a plain file pick). */
  path: string[];
}

/** .DS_Store and every dot entry (a dot file, or anything inside a dot folder) are skipped. */
export function isSkippedEntry(segments: readonly string[]): boolean {
  return segments.some((segment) => segment.startsWith('.'));
}

/** Files from an <input type=file> pick, keeping folder paths (webkitRelativePath) of a folder pick. */
export function toPickedFiles(files: Iterable<File & { readonly webkitRelativePath?: string }>): PickedFile[] {
  const picked: PickedFile[] = [];
  for (const file of files) {
    const relative = file.webkitRelativePath ? file.webkitRelativePath.split('/').filter(Boolean) : [file.name];
    if (isSkippedEntry(relative)) continue;
    picked.push({ file, path: relative.slice(0, -1) });
  }
  return picked;
}

export const DUPLICATE_CHOICES = ['replace', 'keepBoth', 'skip'] as const;
export type DuplicateChoice = (typeof DUPLICATE_CHOICES)[number];

/**
 * Indexes of picked files that clash with a file in the destination folder: only files picked
 * on their own (a folder pick creates new folders). Compared as SYNC_SPEC R73 compares names, so
 * `existingFileNames` holds their nameKey.
 */
export function findDuplicateIndexes(picked: readonly PickedFile[], existingFileNames: ReadonlySet<string>): number[] {
  return picked.flatMap((item, index) => (item.path.length === 0 && existingFileNames.has(nameKey(item.file.name)) ? [index] : []));
}

/**
 * The confirmation's space line for uploads of `total` bytes, given `available`: the room an
 * upload by this user into the vault has (GET /vaults/{id}/storage, the owner's remaining space,
 * capped by an airdrop link's allowance), or null while it is unknown (loading, or offline, where
 * the upload waits and the server checks at announce). `isShort` blocks the Upload button.
 */
export function uploadSpaceNote(total: number, available: number | null): { text: string; isShort: boolean } | null {
  if (available === null) return null;
  const isShort = total > available;
  return { text: isShort ? `Not enough available space: ${formatBytes(available)}` : `Available: ${formatBytes(available)}`, isShort };
}

/** An upload's state (see UploadState in src/storage/vaultRecords.ts for the transitions). */
export type UploadStateName = 'queued' | 'encrypting' | 'uploading' | 'paused' | 'resuming' | 'finalising' | 'done' | 'failed' | 'cancelled';

/** What the progress box says for a set of uploads, in order of precedence. */
export type UploadStage = 'paused' | 'resuming' | 'uploading' | 'queued' | 'finalising' | 'done' | 'failed';

export interface UploadLike {
  state: UploadStateName;
  size: number;
  sentBytes: number;
}

export interface UploadSummary {
  done: number;
  total: number;
  failed: number;
  percent: number;
  stage: UploadStage;
  /** No upload is still moving (every one done, failed or cancelled). */
  isSettled: boolean;
}

/** Not finished, failed or cancelled: the queue is still working on these. */
export const ACTIVE_UPLOAD_STATES: ReadonlySet<UploadStateName> = new Set(['queued', 'encrypting', 'uploading', 'paused', 'resuming', 'finalising']);

/** Not yet finished and not finalising: the user may still cancel these. */
const CANCELLABLE: ReadonlySet<UploadStateName> = new Set(['queued', 'encrypting', 'uploading', 'paused', 'resuming']);

export function isCancellable(state: UploadStateName): boolean {
  return CANCELLABLE.has(state);
}

/**
 * Counts, percentage and stage of a set of uploads; cancelled ones are out of the counts. A
 * paused upload holds the whole queue up, so it names the stage; then resuming, uploading,
 * queued (nothing started yet) and finalising; once settled, failed if any failed, else done.
 */
export function summariseUploads(uploads: readonly UploadLike[]): UploadSummary {
  const counted = uploads.filter((u) => u.state !== 'cancelled');
  const done = counted.filter((u) => u.state === 'done').length;
  const failed = counted.filter((u) => u.state === 'failed').length;
  const totalBytes = counted.reduce((sum, u) => sum + u.size, 0);
  const sentBytes = counted.reduce((sum, u) => sum + (u.state === 'done' || u.state === 'finalising' ? u.size : Math.min(u.sentBytes, u.size)), 0);
  const isMoving = counted.some((u) => CANCELLABLE.has(u.state));
  const percent = totalBytes === 0 ? (counted.length > 0 && !isMoving ? 100 : 0) : Math.floor((sentBytes / totalBytes) * 100);
  const has = (...states: UploadStateName[]) => counted.some((u) => states.includes(u.state));
  const stage: UploadStage = has('paused')
    ? 'paused'
    : has('resuming')
      ? 'resuming'
      : has('uploading', 'encrypting')
        ? 'uploading'
        : has('queued')
          ? 'queued'
          : has('finalising')
            ? 'finalising'
            : failed > 0
              ? 'failed'
              : 'done';
  return { done, total: counted.length, failed, percent, stage, isSettled: !isMoving && !has('finalising') };
}

/** One upload's state as a word for its line in the progress box. */
export function uploadStateLabel(state: UploadStateName): string {
  switch (state) {
    case 'queued':
      return 'Queued';
    case 'encrypting':
    case 'uploading':
      return 'Uploading';
    case 'paused':
      return 'Paused';
    case 'resuming':
      return 'Resuming';
    case 'finalising':
      return 'Finalising';
    case 'done':
      return 'Uploaded';
    case 'failed':
      return 'Failed';
    case 'cancelled':
      return 'Cancelled';
  }
}

/** One upload's state with the share sent while it is on the wire ('Paused 40%'), for its line in the progress box. */
export function uploadProgressText(upload: UploadLike): string {
  const label = uploadStateLabel(upload.state);
  const isSending = upload.state === 'uploading' || upload.state === 'paused' || upload.state === 'resuming';
  if (!isSending || upload.sentBytes === 0) return label;
  const percent = upload.size > 0 ? Math.floor((Math.min(upload.sentBytes, upload.size) / upload.size) * 100) : 0;
  return `${label} ${percent}%`;
}

/**
 * What a new file's row in its folder says until its upload is done (docs/SYNC_SPEC.md R7, R14):
 * 'Waiting to upload' while nothing can move (offline, or paused until the connection is back),
 * else its progress.
 */
export function pendingUploadText(upload: UploadLike, isOffline: boolean): string {
  return isOffline || upload.state === 'paused' ? 'Waiting to upload' : uploadProgressText(upload);
}

/**
 * The uploads that are to become new files in a folder and are still on their way: shown in the
 * folder's list as pending rows, in picking order, until the file itself is there (`presentIds`,
 * the folder's items: from the moment the file operation is queued the file is one of them).
 *
 * `presentIds` is a read of the folder made at `presentReadAt`, apart from the read of the
 * uploads: an upload that finished after that read has its file in the folder already, but not
 * in that read, and keeps its row until a newer read has the file. Without it the folder's count
 * dropped for a moment as each upload finished (and a page jump meanwhile landed on the wrong rows).
 */
export function uploadsOnTheWay<T extends UploadLike & { vaultId: string; parentId: string | null; fileId: string; isNewFile: boolean; finishedAt?: number }>(
  uploads: readonly T[],
  vaultId: string,
  parentId: string | null,
  presentIds: ReadonlySet<string>,
  presentReadAt: number = Number.POSITIVE_INFINITY,
): T[] {
  const isOnItsWay = (u: T) => ACTIVE_UPLOAD_STATES.has(u.state) || (u.state === 'done' && u.finishedAt !== undefined && u.finishedAt >= presentReadAt);
  return uploads.filter((u) => u.vaultId === vaultId && u.parentId === parentId && u.isNewFile && isOnItsWay(u) && !presentIds.has(u.fileId));
}

/** The line the retry dialog shows for a failed upload: the error, led by the file's name unless it names it. */
export function uploadFailureText(upload: { name: string; error: string | null }, fallback: string): string {
  const error = upload.error ?? fallback;
  return error.includes(`"${upload.name}"`) ? error : `${upload.name}: ${error}`;
}

/** How long the notice of uploads that cannot resume after a reload stays up (ms). */
export const NOT_KEPT_NOTICE_MS = 10_000;

/**
 * The notice for files this device had no room to keep a copy of: they upload only while the
 * page stays open (a reload fails them, naming each, with a way to pick them again).
 */
export function notKeptText(names: readonly string[]): string {
  const what = names.length === 1 ? `"${names[0]}" is` : `${names.length} files are`;
  const them = names.length === 1 ? 'it is' : 'they are';
  return `${what} too large to keep on this device: keep this page open until ${them} uploaded.`;
}

export function cancelledText(count: number): string {
  return count === 1 ? '1 file was cancelled' : `${count} files were cancelled`;
}

export interface ResolvedUpload {
  file: File;
  path: string[];
  replaceFileId?: string;
  name?: string;
}

/**
 * Applies duplicate choices: Replace adds a version to the existing file, Keep both renames with
 * the copy suffix (unique among existing names and the other new names), Skip drops the item.
 */
export function applyDuplicateChoices(
  picked: readonly PickedFile[],
  choices: ReadonlyMap<number, DuplicateChoice>,
  /** File ids by their name's nameKey (R73). */
  existingFiles: ReadonlyMap<string, string>,
  makeKeepBothName: (name: string, taken: Iterable<string>) => string,
): ResolvedUpload[] {
  const taken = new Set([...existingFiles.keys(), ...picked.filter((p) => p.path.length === 0).map((p) => p.file.name)]);
  const result: ResolvedUpload[] = [];
  picked.forEach((item, index) => {
    const choice = choices.get(index);
    if (choice === 'skip') return;
    if (choice === 'replace') {
      result.push({ file: item.file, path: item.path, replaceFileId: existingFiles.get(nameKey(item.file.name)) });
    } else if (choice === 'keepBoth') {
      const name = makeKeepBothName(item.file.name, taken);
      taken.add(name);
      result.push({ file: item.file, path: item.path, name });
    } else {
      result.push({ file: item.file, path: item.path });
    }
  });
  return result;
}
