import { describe, expect, it } from 'vitest';
import { nameKey } from './nodeNames';
import {
  cancelledText,
  notKeptText,
  findDuplicateIndexes,
  isCancellable,
  isSkippedEntry,
  pendingUploadText,
  summariseUploads,
  toPickedFiles,
  uploadFailureText,
  uploadProgressText,
  uploadStateLabel,
  uploadSpaceNote,
  uploadsOnTheWay,
} from './uploadRules';

function file(name: string, relative = ''): File {
  const f = new File(['x'], name);
  Object.defineProperty(f, 'webkitRelativePath', { value: relative });
  return f;
}

describe('upload rules (spec 000 sections 4, 5)', () => {
  it('skips .DS_Store and dot entries, keeping folder paths', () => {
    expect(isSkippedEntry(['a', '.git', 'x'])).toBe(true);
    const picked = toPickedFiles([file('a.txt', 'Photos/2024/a.txt'), file('.DS_Store', 'Photos/.DS_Store'), file('b.txt')]);
    expect(picked.map((p) => [p.file.name, p.path])).toEqual([
      ['a.txt', ['Photos', '2024']],
      ['b.txt', []],
    ]);
  });
  it('finds duplicates among single picks only', () => {
    const picked = toPickedFiles([file('a.txt'), file('a.txt', 'F/a.txt'), file('c.txt')]);
    expect(findDuplicateIndexes(picked, new Set(['a.txt']))).toEqual([0]);
  });
  it('[R73] finds a duplicate whatever its case: Photo.PNG repeats photo.png', () => {
    const picked = toPickedFiles([file('Photo.PNG'), file('other.png')]);
    expect(findDuplicateIndexes(picked, new Set([nameKey('photo.png')]))).toEqual([0]);
  });
  it("says the vault's available space, and blocks an upload that does not fit it", () => {
    expect(uploadSpaceNote(1_000, 1_500_000)).toEqual({ text: 'Available: 1.5 MB', isShort: false });
    expect(uploadSpaceNote(1_500_000, 1_500_000)).toEqual({ text: 'Available: 1.5 MB', isShort: false });
    expect(uploadSpaceNote(1_500_001, 1_500_000)).toEqual({ text: 'Not enough available space: 1.5 MB', isShort: true });
    // An airdrop link made with no storage: nothing fits.
    expect(uploadSpaceNote(1, 0)).toEqual({ text: 'Not enough available space: 0 B', isShort: true });
    // Unknown (offline): no line here; the upload waits and the server checks.
    expect(uploadSpaceNote(1_000, null)).toBeNull();
  });
  it('summarises progress and stages', () => {
    expect(summariseUploads([
      { state: 'uploading', size: 100, sentBytes: 50 },
      { state: 'done', size: 100, sentBytes: 100 },
      { state: 'cancelled', size: 100, sentBytes: 0 },
    ])).toMatchObject({ done: 1, total: 2, percent: 75, stage: 'uploading', isSettled: false });
    expect(summariseUploads([{ state: 'finalising', size: 10, sentBytes: 10 }])).toMatchObject({ percent: 100, stage: 'finalising' });
    expect(summariseUploads([{ state: 'done', size: 0, sentBytes: 0 }, { state: 'failed', size: 3, sentBytes: 0 }])).toMatchObject({ failed: 1, stage: 'failed', isSettled: true });
  });
  it('names the stage: a paused upload holds the queue up, then resuming, uploading, queued', () => {
    const one = (state: Parameters<typeof isCancellable>[0]) => ({ state, size: 10, sentBytes: 5 });
    expect(summariseUploads([one('queued'), one('paused'), one('done')]).stage).toBe('paused');
    expect(summariseUploads([one('queued'), one('resuming')]).stage).toBe('resuming');
    expect(summariseUploads([one('queued'), one('uploading')]).stage).toBe('uploading');
    expect(summariseUploads([one('queued'), one('done')])).toMatchObject({ stage: 'queued', isSettled: false });
    expect(summariseUploads([one('cancelled'), one('done')])).toMatchObject({ stage: 'done', total: 1, isSettled: true });
  });
  it('lets the user cancel what is not finished, and words each state', () => {
    expect((['queued', 'uploading', 'paused', 'resuming'] as const).every(isCancellable)).toBe(true);
    expect((['finalising', 'done', 'failed', 'cancelled'] as const).some(isCancellable)).toBe(false);
    expect(uploadStateLabel('paused')).toBe('Paused');
    expect(uploadStateLabel('resuming')).toBe('Resuming');
    expect(uploadStateLabel('done')).toBe('Uploaded');
  });
  it('words a line of the progress box with the share sent, and a pending row in its folder', () => {
    expect(uploadProgressText({ state: 'uploading', size: 200, sentBytes: 50 })).toBe('Uploading 25%');
    expect(uploadProgressText({ state: 'paused', size: 200, sentBytes: 100 })).toBe('Paused 50%');
    expect(uploadProgressText({ state: 'uploading', size: 200, sentBytes: 0 })).toBe('Uploading');
    expect(uploadProgressText({ state: 'finalising', size: 200, sentBytes: 200 })).toBe('Finalising');
    expect(pendingUploadText({ state: 'uploading', size: 200, sentBytes: 50 }, false)).toBe('Uploading 25%');
    expect(pendingUploadText({ state: 'queued', size: 200, sentBytes: 0 }, false)).toBe('Queued');
    expect(pendingUploadText({ state: 'queued', size: 200, sentBytes: 0 }, true)).toBe('Waiting to upload');
    expect(pendingUploadText({ state: 'paused', size: 200, sentBytes: 100 }, false)).toBe('Waiting to upload');
  });
  it('R7, R14: a folder shows the new files on their way into it, until the file itself is there', () => {
    const upload = (fileId: string, extra: Partial<{ vaultId: string; parentId: string | null; isNewFile: boolean; state: Parameters<typeof isCancellable>[0] }> = {}) => ({
      fileId,
      vaultId: 'v',
      parentId: 'f',
      isNewFile: true,
      state: 'uploading' as const,
      size: 1,
      sentBytes: 0,
      ...extra,
    });
    const uploads = [
      upload('a'),
      upload('b', { state: 'paused' }),
      upload('c', { state: 'done' }),
      upload('d', { state: 'failed' }),
      upload('e', { isNewFile: false }),
      upload('g', { parentId: null }),
      upload('h', { vaultId: 'w' }),
      upload('i', { state: 'finalising' }),
      upload('j', { state: 'queued' }),
    ];
    expect(uploadsOnTheWay(uploads, 'v', 'f', new Set(['i'])).map((u) => u.fileId)).toEqual(['a', 'b', 'j']);
    expect(uploadsOnTheWay(uploads, 'v', null, new Set()).map((u) => u.fileId)).toEqual(['g']);
  });
  it("keeps a finished upload's row while the folder's read predates its file, not after", () => {
    const upload = (fileId: string, finishedAt: number) => ({
      uploadId: `u-${fileId}`, fileId, vaultId: 'v', parentId: null, isNewFile: true, state: 'done' as const, size: 1, sentBytes: 1, finishedAt,
    });
    const uploads = [upload('early', 1_000), upload('late', 2_000)];
    // The folder was read at 1,500: 'late' finished after, so its file is not in that read yet.
    expect(uploadsOnTheWay(uploads, 'v', null, new Set(), 1_500).map((u) => u.fileId)).toEqual(['late']);
    // A read at 2,500 has both files; a file moved away since is not shown as on its way either.
    expect(uploadsOnTheWay(uploads, 'v', null, new Set(['late']), 2_500)).toEqual([]);
    // In the read, the file is the row.
    expect(uploadsOnTheWay(uploads, 'v', null, new Set(['late']), 1_500)).toEqual([]);
  });
  it('leads a failure with the file name unless the message names it', () => {
    expect(uploadFailureText({ name: 'a.txt', error: null }, 'Failed uploading the file')).toBe('a.txt: Failed uploading the file');
    const changed = '"a.txt" changed after it was picked, so it was not uploaded. Pick the file again to upload it.';
    expect(uploadFailureText({ name: 'a.txt', error: changed }, 'x')).toBe(changed);
  });
  it('words the cancellation', () => {
    expect(cancelledText(1)).toBe('1 file was cancelled');
    expect(cancelledText(3)).toBe('3 files were cancelled');
  });
  it('names the files that must keep the page open', () => {
    expect(notKeptText(['film.mkv'])).toBe('"film.mkv" is too large to keep on this device: keep this page open until it is uploaded.');
    expect(notKeptText(['a.iso', 'b.iso'])).toBe('2 files are too large to keep on this device: keep this page open until they are uploaded.');
  });
});

describe('duplicate choices (spec 000 section 4)', () => {
  it('replaces, keeps both with unique names, or skips', async () => {
    const { applyDuplicateChoices } = await import('./uploadRules');
    const { keepBothName } = await import('./fileNaming');
    const picked = toPickedFiles([file('a.txt'), file('b.txt'), file('c.txt'), file('new.txt')]);
    const existing = new Map([['a.txt', 'id-a'], ['b.txt', 'id-b'], ['c.txt', 'id-c'], ['b copy.txt', 'id-bc']]);
    const result = applyDuplicateChoices(picked, new Map([[0, 'replace'], [1, 'keepBoth'], [2, 'skip']]), existing, keepBothName);
    expect(result.map((r) => [r.file.name, r.replaceFileId, r.name])).toEqual([
      ['a.txt', 'id-a', undefined],
      ['b.txt', undefined, 'b 2.txt'],
      ['new.txt', undefined, undefined],
    ]);
  });
});
