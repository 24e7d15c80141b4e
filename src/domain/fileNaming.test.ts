import { describe, expect, it } from 'vitest';
import { keepBothName, splitExtension } from './fileNaming';

describe('Keep both naming (spec 000 section 4)', () => {
  it('adds " copy" before the extension', () => {
    expect(keepBothName('photo.jpg', ['photo.jpg'])).toBe('photo copy.jpg');
  });
  it('then " 2", " 3", ...', () => {
    expect(keepBothName('photo.jpg', ['photo.jpg', 'photo copy.jpg'])).toBe('photo 2.jpg');
    expect(keepBothName('photo.jpg', ['photo.jpg', 'photo copy.jpg', 'photo 2.jpg'])).toBe('photo 3.jpg');
  });
  it('handles names without or with several dots', () => {
    expect(keepBothName('README', ['README'])).toBe('README copy');
    expect(keepBothName('a.tar.gz', ['a.tar.gz'])).toBe('a.tar copy.gz');
    expect(splitExtension('.env')).toEqual(['.env', '']);
  });
  it('compares case-insensitively', () => {
    expect(keepBothName('A.txt', ['a copy.txt'])).toBe('A 2.txt');
  });
});
