import { describe, expect, it } from 'vitest';
import { isZipFileName, planZipEntry } from './zipUnpackRules';

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

  it('reads backslashes as separators and drops empty, "." and leading-slash segments', () => {
    expect(planZipEntry('Survey\\Maps\\ridge.txt', false)).toEqual({ kind: 'file', target: { path: ['Survey', 'Maps'], name: 'ridge.txt' } });
    expect(planZipEntry('/Survey//./notes.txt', false)).toEqual({ kind: 'file', target: { path: ['Survey'], name: 'notes.txt' } });
  });

  it('skips directories, __MACOSX, .DS_Store and every dot entry', () => {
    expect(planZipEntry('Survey/', true)).toEqual({ kind: 'skip' });
    expect(planZipEntry('__MACOSX/Survey/._ridge.txt', false)).toEqual({ kind: 'skip' });
    expect(planZipEntry('Survey/__MACOSX/x', false)).toEqual({ kind: 'skip' });
    expect(planZipEntry('Survey/.DS_Store', false)).toEqual({ kind: 'skip' });
    expect(planZipEntry('.git/config', false)).toEqual({ kind: 'skip' });
    expect(planZipEntry('Survey/.hidden/notes.txt', false)).toEqual({ kind: 'skip' });
    expect(planZipEntry('', false)).toEqual({ kind: 'skip' });
  });

  it('marks an entry that climbs out of the archive as unsafe', () => {
    expect(planZipEntry('../etc/passwd', false)).toEqual({ kind: 'unsafe' });
    expect(planZipEntry('Survey/../../x.txt', false)).toEqual({ kind: 'unsafe' });
    expect(planZipEntry('Survey\\..\\x.txt', false)).toEqual({ kind: 'unsafe' });
  });

  it('keeps names that only contain dots or look like paths elsewhere', () => {
    expect(planZipEntry('Survey/v1..2.txt', false)).toEqual({ kind: 'file', target: { path: ['Survey'], name: 'v1..2.txt' } });
  });
});
