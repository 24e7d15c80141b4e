/**
 * Upload flow rules (spec 000 sections 4 and 5): picked entries, duplicate resolution, available
 * space and the progress box's summary.
 */

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
 * on their own (a folder pick creates new folders). Compared case-sensitively, as names are stored.
 */
export function findDuplicateIndexes(picked: readonly PickedFile[], existingFileNames: ReadonlySet<string>): number[] {
  return picked.flatMap((item, index) => (item.path.length === 0 && existingFileNames.has(item.file.name) ? [index] : []));
}

/** Available bytes of the storage that backs the vault (cloud or permanent). */
export function availableBytes(storage: { cloudTotal: number; cloudUsed: number; permanentTotal: number; permanentUsed: number }, isCloud: boolean): number {
  const available = isCloud ? storage.cloudTotal - storage.cloudUsed : storage.permanentTotal - storage.permanentUsed;
  return Math.max(0, available);
}

export type UploadStage = 'uploading' | 'finalising' | 'done';

export interface UploadLike {
  state: 'queued' | 'encrypting' | 'uploading' | 'paused' | 'finalising' | 'done' | 'failed' | 'cancelled';
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

const MOVING: ReadonlySet<UploadLike['state']> = new Set(['queued', 'encrypting', 'uploading', 'paused']);

/** Counts, percentage and stage of a set of uploads; cancelled ones are out of the counts. */
export function summariseUploads(uploads: readonly UploadLike[]): UploadSummary {
  const counted = uploads.filter((u) => u.state !== 'cancelled');
  const done = counted.filter((u) => u.state === 'done').length;
  const failed = counted.filter((u) => u.state === 'failed').length;
  const totalBytes = counted.reduce((sum, u) => sum + u.size, 0);
  const sentBytes = counted.reduce((sum, u) => sum + (u.state === 'done' || u.state === 'finalising' ? u.size : Math.min(u.sentBytes, u.size)), 0);
  const percent = totalBytes === 0 ? (counted.length > 0 && !counted.some((u) => MOVING.has(u.state)) ? 100 : 0) : Math.floor((sentBytes / totalBytes) * 100);
  const isMoving = counted.some((u) => MOVING.has(u.state));
  const isFinalising = counted.some((u) => u.state === 'finalising');
  return {
    done,
    total: counted.length,
    failed,
    percent,
    stage: isMoving ? 'uploading' : isFinalising ? 'finalising' : 'done',
    isSettled: !isMoving && !isFinalising,
  };
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
  existingFiles: ReadonlyMap<string, string>,
  makeKeepBothName: (name: string, taken: Iterable<string>) => string,
): ResolvedUpload[] {
  const taken = new Set([...existingFiles.keys(), ...picked.filter((p) => p.path.length === 0).map((p) => p.file.name)]);
  const result: ResolvedUpload[] = [];
  picked.forEach((item, index) => {
    const choice = choices.get(index);
    if (choice === 'skip') return;
    if (choice === 'replace') {
      result.push({ file: item.file, path: item.path, replaceFileId: existingFiles.get(item.file.name) });
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
