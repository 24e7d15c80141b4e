import { describe, expect, it } from 'vitest';
import { emptyFolderPaths, isZipFileName, planZipEntry, UNPACK_FAILURE } from './zipUnpackRules';

describe('zip upload entries (spec 000 sections 2 and 5)', () => {
  it('accepts only .zip names', () => {
    expect(isZipFileName('survey.zip')).toBe(true);
    expect(isZipFileName('SURVEY.ZIP')).toBe(true);
    expect(isZipFileName('survey.zip.txt')).toBe(false);
    expect(isZipFileName('survey.tar.gz')).toBe(false);
    expect(isZipFileName('zip')).toBe(false);
  });

  it('maps an entry path to its folders and name, the archive root being the destination', () => {
    expect(planZipEntry('readme.txt', false)).toEqual({ kind: 'file', target: { path: [], name: 'readme.txt' } });
    expect(planZipEntry('Survey/Maps/ridge.txt', false)).toEqual({ kind: 'file', target: { path: ['Survey', 'Maps'], name: 'ridge.txt' } });
  });

  it('reads backslashes as separators and drops empty and "." segments', () => {
    expect(planZipEntry('Survey\\Maps\\ridge.txt', false)).toEqual({ kind: 'file', target: { path: ['Survey', 'Maps'], name: 'ridge.txt' } });
    expect(planZipEntry('Survey//./notes.txt', false)).toEqual({ kind: 'file', target: { path: ['Survey'], name: 'notes.txt' } });
  });

  it('plans a directory entry as its folder path, to be created even when empty', () => {
    expect(planZipEntry('Survey/', true)).toEqual({ kind: 'folder', path: ['Survey'] });
    expect(planZipEntry('Survey\\Empty\\', true)).toEqual({ kind: 'folder', path: ['Survey', 'Empty'] });
    expect(planZipEntry('./', true)).toEqual({ kind: 'skip' });
  });

  it('skips __MACOSX, .DS_Store and every dot entry', () => {
    expect(planZipEntry('__MACOSX/', true)).toEqual({ kind: 'skip' });
    expect(planZipEntry('Survey/.git/', true)).toEqual({ kind: 'skip' });
    expect(planZipEntry('__MACOSX/Survey/._ridge.txt', false)).toEqual({ kind: 'skip' });
    expect(planZipEntry('Survey/__MACOSX/x', false)).toEqual({ kind: 'skip' });
    expect(planZipEntry('Survey/.DS_Store', false)).toEqual({ kind: 'skip' });
    expect(planZipEntry('.git/config', false)).toEqual({ kind: 'skip' });
    expect(planZipEntry('Survey/.hidden/notes.txt', false)).toEqual({ kind: 'skip' });
    expect(planZipEntry('', false)).toEqual({ kind: 'skip' });
  });

  it('refuses an entry that climbs out of the archive or starts at a root (zip slip)', () => {
    const unsafe = { kind: 'refused', reason: 'unsafe' };
    expect(planZipEntry('../etc/passwd', false)).toEqual(unsafe);
    expect(planZipEntry('Survey/../../x.txt', false)).toEqual(unsafe);
    expect(planZipEntry('Survey\\..\\x.txt', false)).toEqual(unsafe);
    expect(planZipEntry('../.hidden', false)).toEqual(unsafe);
    expect(planZipEntry('../Outside/', true)).toEqual(unsafe);
    // Absolute paths: POSIX, Windows (backslashes, a drive letter, a UNC share).
    expect(planZipEntry('/etc/passwd', false)).toEqual(unsafe);
    expect(planZipEntry('\\Windows\\win.ini', false)).toEqual(unsafe);
    expect(planZipEntry('C:\\Users\\x.txt', false)).toEqual(unsafe);
    expect(planZipEntry('c:/x.txt', false)).toEqual(unsafe);
    expect(planZipEntry('\\\\server\\share\\x.txt', false)).toEqual(unsafe);
    expect(UNPACK_FAILURE.unsafe).toBe('Its path points outside the archive.');
  });

  it('refuses a name no file or folder may have: control characters, only spaces, too long', () => {
    const bad = { kind: 'refused', reason: 'badName' };
    expect(planZipEntry('Survey/line\nbreak.txt', false)).toEqual(bad);
    expect(planZipEntry('Survey/nul\u0000.txt', false)).toEqual(bad);
    expect(planZipEntry('Bell\u0007/x.txt', false)).toEqual(bad);
    expect(planZipEntry('Survey/escape\u001b[31m.txt', false)).toEqual(bad);
    expect(planZipEntry('Survey/   /x.txt', false)).toEqual(bad);
    expect(planZipEntry('Survey/sep\u2028arated.txt', false)).toEqual(bad);
    const long = { kind: 'refused', reason: 'longName' };
    expect(planZipEntry(`Survey/${'a'.repeat(252)}.txt`, false)).toEqual(long);
    expect(planZipEntry(`${'F'.repeat(256)}/x.txt`, false)).toEqual(long);
    expect(planZipEntry(`Survey/${'a'.repeat(251)}.txt`, false)).toEqual({ kind: 'file', target: { path: ['Survey'], name: `${'a'.repeat(251)}.txt` } });
    expect(UNPACK_FAILURE.longName).toBe('Its name is longer than 255 characters.');
  });

  it('keeps names in any script, with spaces, quotes and markup-like text, as they are', () => {
    for (const name of ['Überblick März.txt', '測量 データ.csv', 'a "quoted" name.txt', '<img src=x onerror=alert(1)>.txt', 'C:report.txt']) {
      expect(planZipEntry(`Survey/${name}`, false)).toEqual({ kind: 'file', target: { path: ['Survey'], name } });
    }
  });

  it('keeps names that only contain dots or look like paths elsewhere', () => {
    expect(planZipEntry('Survey/v1..2.txt', false)).toEqual({ kind: 'file', target: { path: ['Survey'], name: 'v1..2.txt' } });
  });

  it('lists as empty only the folders that no file or deeper folder creates, once each', () => {
    const folders = [['Survey'], ['Survey', 'Maps'], ['Survey', 'Empty'], ['Survey', 'Deep'], ['Survey', 'Deep', 'Er'], ['Survey', 'Empty'], ['Blank']];
    const files = [['Survey', 'Maps'], []];
    expect(emptyFolderPaths(folders, files)).toEqual([['Survey', 'Empty'], ['Survey', 'Deep', 'Er'], ['Blank']]);
    expect(emptyFolderPaths([], files)).toEqual([]);
    expect(emptyFolderPaths([['Only']], [])).toEqual([['Only']]);
  });
});
