import { describe, expect, it } from 'vitest';
import { buildArweaveManifest, leftOutText, manifestLinkState, type ManifestNode, manifestSegment, serializeManifest } from './arweaveManifest';

const ID = (c: string) => c.repeat(43);

function folder(id: string, name: string, parentId: string | null = null, status: ManifestNode['status'] = 'ACTIVE'): ManifestNode {
  return { id, kind: 'folder', parentId, name, status, latestVersionId: null };
}
function file(id: string, name: string, parentId: string | null = null, status: ManifestNode['status'] = 'ACTIVE'): ManifestNode {
  return { id, kind: 'file', parentId, name, status, latestVersionId: `v-${id}` };
}

describe('buildArweaveManifest', () => {
  it('maps each live file by its folder path to its current version\'s data item id', () => {
    const nodes = [folder('f1', 'photos'), folder('f2', '2024', 'f1'), file('a', 'cat.png', 'f2'), file('b', 'readme.txt')];
    const ids = new Map([
      ['v-a', ID('A')],
      ['v-b', ID('B')],
    ]);
    const build = buildArweaveManifest(nodes, ids);
    expect(build.manifest).toEqual({
      manifest: 'arweave/paths',
      version: '0.2.0',
      index: { path: 'photos/2024/cat.png' },
      paths: { 'photos/2024/cat.png': { id: ID('A') }, 'readme.txt': { id: ID('B') } },
    });
    expect(build).toMatchObject({ includedCount: 2, missingIdCount: 0, duplicatePathCount: 0 });
  });

  it('leaves out hidden files, the contents of hidden folders, and deleted ones, without counting them as missing', () => {
    const nodes = [
      folder('f1', 'old', null, 'REVOKED'),
      folder('f2', 'inner', 'f1'),
      file('a', 'in-hidden.txt', 'f1'),
      file('b', 'deep-in-hidden.txt', 'f2'),
      file('c', 'hidden.txt', null, 'REVOKED'),
      file('d', 'gone.txt', null, 'DELETED'),
      file('e', 'kept.txt'),
    ];
    const ids = new Map(['a', 'b', 'c', 'd', 'e'].map((id) => [`v-${id}`, ID(id.toUpperCase())]));
    const build = buildArweaveManifest(nodes, ids);
    expect(Object.keys(build.manifest.paths)).toEqual(['kept.txt']);
    expect(build.missingIdCount).toBe(0);
  });

  it('counts live files whose version has no data item id yet, and leaves out the manifest being replaced', () => {
    const nodes = [file('a', 'bundled.txt'), file('b', 'scheduled.txt'), file('m', 'manifest.json')];
    const build = buildArweaveManifest(nodes, new Map([['v-a', ID('A')], ['v-m', ID('M')]]), { excludeFileId: 'm' });
    expect(build.manifest.paths).toEqual({ 'bundled.txt': { id: ID('A') } });
    expect(build).toMatchObject({ includedCount: 1, missingIdCount: 1 });
    expect(leftOutText(build)).toBe('1 file is left out: it is not yet on the network.');
  });

  it('escapes a "/" inside a name so it cannot pose as a folder, keeps other characters as they are', () => {
    expect(manifestSegment('a/b.txt')).toBe('a%2Fb.txt');
    expect(manifestSegment('Field notes é 100%.txt')).toBe('Field notes é 100%.txt');
    expect(manifestSegment('..')).toBe('%2E%2E');
    const nodes = [folder('f', 'x/y'), file('a', 'z/w.txt', 'f'), file('b', 'plain.txt', 'f')];
    const build = buildArweaveManifest(nodes, new Map([['v-a', ID('A')], ['v-b', ID('B')]]));
    expect(Object.keys(build.manifest.paths)).toEqual(['x%2Fy/plain.txt', 'x%2Fy/z%2Fw.txt']);
  });

  it('is deterministic: the same files in any order give the same bytes, paths sorted by code unit', () => {
    const nodes = [folder('f', 'b'), file('1', 'Z.txt'), file('2', 'a.txt'), file('3', 'c.txt', 'f'), file('4', 'é.txt')];
    const ids = new Map(['1', '2', '3', '4'].map((id) => [`v-${id}`, ID(String.fromCharCode(64 + Number(id)))]));
    const one = serializeManifest(buildArweaveManifest(nodes, ids).manifest);
    const two = serializeManifest(buildArweaveManifest([...nodes].reverse(), ids).manifest);
    expect(one).toBe(two);
    expect(Object.keys(JSON.parse(one).paths)).toEqual(['Z.txt', 'a.txt', 'b/c.txt', 'é.txt']);
  });

  it('keeps one file per path (the smaller id) and says how many were left out for it', () => {
    const nodes = [file('b', 'same.txt'), file('a', 'same.txt'), file('c', 'other.txt')];
    const ids = new Map([['v-a', ID('A')], ['v-b', ID('B')], ['v-c', ID('C')]]);
    const build = buildArweaveManifest(nodes, ids);
    expect(build.manifest.paths['same.txt']).toEqual({ id: ID('A') });
    expect(build).toMatchObject({ includedCount: 2, duplicatePathCount: 1 });
    expect(leftOutText(build)).toBe('1 file is left out: another file has the same name in its folder.');
  });

  it('points the index at a root index.html when there is one, else at the first path, and has none without paths', () => {
    const ids = new Map([['v-a', ID('A')], ['v-b', ID('B')]]);
    expect(buildArweaveManifest([file('a', 'index.html'), file('b', 'app.js')], ids).manifest.index).toEqual({ path: 'index.html' });
    expect(buildArweaveManifest([folder('f', 'site'), file('a', 'index.html', 'f'), file('b', 'zeta.js')], ids).manifest.index).toEqual({ path: 'site/index.html' });
    expect(buildArweaveManifest([file('a', 'draft.txt', null, 'REVOKED')], ids).manifest.index).toBeUndefined();
  });

  it('leaves out files under a parent that is not in the projection', () => {
    const build = buildArweaveManifest([file('a', 'orphan.txt', 'missing-folder')], new Map([['v-a', ID('A')]]));
    expect(build.manifest.paths).toEqual({});
    expect(leftOutText(build)).toBeNull();
  });

  it('serializes as JSON that parses back to the manifest', () => {
    const build = buildArweaveManifest([file('a', 'a.txt')], new Map([['v-a', ID('A')]]));
    expect(JSON.parse(serializeManifest(build.manifest))).toEqual(build.manifest);
    expect(leftOutText({ missingIdCount: 3, duplicatePathCount: 2 })).toBe(
      '3 files are left out: they are not yet on the network. 2 files are left out: other files have the same names in their folders.',
    );
  });
});

describe('manifestLinkState (spec 000 sections 5 and 6)', () => {
  const publicPermanent = { isPublic: true, isCloud: false };
  const owner = { role: 'OWNER' as const, status: 'ACTIVE' as const, isReadOnly: false };

  it('is shown for public permanent vaults only', () => {
    expect(manifestLinkState(publicPermanent, owner)).toBe('enabled');
    expect(manifestLinkState({ isPublic: true, isCloud: true }, owner)).toBe('hidden');
    expect(manifestLinkState({ isPublic: false, isCloud: false }, owner)).toBe('hidden');
  });

  it('is disabled for a VIEWER, in read-only mode, in an archived vault and without an upload allowance', () => {
    expect(manifestLinkState(publicPermanent, { ...owner, role: 'CONTRIBUTOR' })).toBe('enabled');
    expect(manifestLinkState(publicPermanent, { ...owner, role: 'VIEWER' })).toBe('disabled');
    expect(manifestLinkState(publicPermanent, { ...owner, isReadOnly: true })).toBe('disabled');
    expect(manifestLinkState(publicPermanent, { ...owner, status: 'ARCHIVED' })).toBe('disabled');
    expect(manifestLinkState(publicPermanent, { ...owner, storageAllowance: 0 })).toBe('disabled');
  });
});
