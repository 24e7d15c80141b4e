import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UNPACK_FAILURE } from '../../src/domain/zipUnpackRules';
import { makeZip, type ZipFixtureEntry } from '../../tests/fixtures/zipArchive';
import { createUnzipApi } from './createUnzipApi';

const sha256 = async (blob: Blob) => createHash('sha256').update(new Uint8Array(await blob.arrayBuffer())).digest('hex');
const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const zipBlob = (entries: ZipFixtureEntry[]) => new Blob([new Uint8Array(makeZip(entries))]);

describe('unzip worker (upload zip & unpack, spec 000 sections 2 and 8)', () => {
  const big = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251));
  const text = Buffer.from('ridge bearings\n'.repeat(200));

  it('unpacks files into their folders, byte for byte, deflated or stored', async () => {
    const zip = zipBlob([
      { name: 'Survey/' },
      { name: 'Survey/index.txt', data: text },
      { name: 'Survey/Maps/' },
      { name: 'Survey/Maps/terrain.bin', data: big },
      { name: 'Survey/Maps/stored.txt', data: Buffer.from('kept as is'), isStored: true },
      { name: 'top.txt', data: Buffer.from('at the root') },
    ]);
    const progress: Array<[number, number]> = [];
    const result = await createUnzipApi().unpack(zip, (done, total) => progress.push([done, total]));
    expect(result.failures).toEqual([]);
    expect(result.emptyFolders).toEqual([]);
    expect(result.files.map((f) => [f.path.join('/'), f.file.name, f.file.size])).toEqual([
      ['Survey', 'index.txt', text.length],
      ['Survey/Maps', 'terrain.bin', big.length],
      ['Survey/Maps', 'stored.txt', 10],
      ['', 'top.txt', 11],
    ]);
    expect(await sha256(result.files[1]!.file)).toBe(sha256Of(big));
    expect(await result.files[0]!.file.text()).toBe(text.toString());
    expect(progress.at(-1)).toEqual([6, 6]);
  });

  it('skips __MACOSX, .DS_Store and dot entries without reporting them', async () => {
    const zip = zipBlob([
      { name: 'Survey/notes.txt', data: text },
      { name: 'Survey/.DS_Store', data: Buffer.from('finder') },
      { name: '__MACOSX/Survey/._notes.txt', data: Buffer.from('fork') },
      { name: '.git/config', data: Buffer.from('[core]') },
    ]);
    const result = await createUnzipApi().unpack(zip);
    expect(result.files.map((f) => f.file.name)).toEqual(['notes.txt']);
    expect(result.failures).toEqual([]);
  });

  it('reports damaged, encrypted and unsafe entries by name and unpacks the rest', async () => {
    const zip = zipBlob([
      { name: 'Survey/good.txt', data: text },
      { name: 'Survey/broken.txt', data: text, isCorrupt: true },
      { name: 'Survey/flipped.bin', data: Buffer.from('stored then damaged'), isStored: true, isCorrupt: true },
      { name: 'Survey/secret.txt', data: Buffer.from('sealed'), isEncrypted: true },
      { name: '../escape.txt', data: Buffer.from('outside') },
      { name: 'Survey/after.txt', data: Buffer.from('still here') },
    ]);
    const result = await createUnzipApi().unpack(zip);
    expect(result.files.map((f) => f.file.name)).toEqual(['good.txt', 'after.txt']);
    expect(await result.files[1]!.file.text()).toBe('still here');
    expect(result.emptyFolders).toEqual([]);
    expect(result.failures).toEqual([
      { name: 'Survey/broken.txt', message: UNPACK_FAILURE.damaged },
      // A stored entry has no deflate stream to break: the CRC-32 check catches it.
      { name: 'Survey/flipped.bin', message: UNPACK_FAILURE.damaged },
      { name: 'Survey/secret.txt', message: UNPACK_FAILURE.encrypted },
      { name: '../escape.txt', message: UNPACK_FAILURE.unsafe },
    ]);
  });

  it('rejects a file that is not a zip archive', async () => {
    await expect(createUnzipApi().unpack(new Blob(['just some text, no central directory']))).rejects.toThrow('UNREADABLE_ZIP');
  });

  it('unpacks nested folders and keeps an empty folder, a folder of only skipped entries too', async () => {
    const zip = zipBlob([
      { name: 'Field/' },
      { name: 'Field/2026/' },
      { name: 'Field/2026/Spring/' },
      { name: 'Field/2026/Spring/plots.csv', data: Buffer.from('plot,height\n1,2\n') },
      { name: 'Field/2026/Empty/' },
      { name: 'Field/Drafts/' },
      { name: 'Field/Drafts/.DS_Store', data: Buffer.from('finder') },
      { name: 'Field/2026/Spring/Deeper/Deepest/leaf.txt', data: Buffer.from('leaf') },
      { name: 'Blank/' },
    ]);
    const result = await createUnzipApi().unpack(zip);
    expect(result.failures).toEqual([]);
    expect(result.files.map((f) => [f.path.join('/'), f.file.name])).toEqual([
      ['Field/2026/Spring', 'plots.csv'],
      ['Field/2026/Spring/Deeper/Deepest', 'leaf.txt'],
    ]);
    expect(await result.files[1]!.file.text()).toBe('leaf');
    expect(result.emptyFolders).toEqual([['Field', '2026', 'Empty'], ['Field', 'Drafts'], ['Blank']]);
  });

  it('reports zip-slip and unusable names by their name in the archive and unpacks nothing of them', async () => {
    const secret = Buffer.from('must not land anywhere');
    const zip = zipBlob([
      { name: 'ok/kept.txt', data: Buffer.from('kept') },
      { name: '../../etc/passwd', data: secret },
      { name: '/abs/root.txt', data: secret },
      { name: 'C:\\Windows\\win.ini', data: secret },
      { name: 'ok\\..\\..\\up.txt', data: secret },
      { name: '../Outside/', data: undefined },
      { name: 'ok/line\nbreak.txt', data: secret },
      { name: `ok/${'n'.repeat(300)}.txt`, data: secret },
      { name: 'ok\\win\\sub.txt', data: Buffer.from('backslashes are separators') },
    ]);
    const result = await createUnzipApi().unpack(zip);
    expect(result.files.map((f) => [f.path.join('/'), f.file.name])).toEqual([
      ['ok', 'kept.txt'],
      ['ok/win', 'sub.txt'],
    ]);
    expect(result.emptyFolders).toEqual([]);
    expect(result.failures).toEqual([
      { name: '../../etc/passwd', message: UNPACK_FAILURE.unsafe },
      { name: '/abs/root.txt', message: UNPACK_FAILURE.unsafe },
      { name: 'C:\\Windows\\win.ini', message: UNPACK_FAILURE.unsafe },
      { name: 'ok\\..\\..\\up.txt', message: UNPACK_FAILURE.unsafe },
      { name: '../Outside/', message: UNPACK_FAILURE.unsafe },
      { name: 'ok/line\nbreak.txt', message: UNPACK_FAILURE.badName },
      { name: `ok/${'n'.repeat(300)}.txt`, message: UNPACK_FAILURE.longName },
    ]);
  });
});
