import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSearchApi } from '../../workers/search/createSearchApi';
import { SearchIndex } from '../../workers/search/searchIndex';
import type { SearchApi } from '../../workers/search/SearchApi';
import { CairnDb } from '../storage/db';
import { emptyVaultRecord, loadVaultState, saveVaultState } from '../storage/vaultProjection';
import type { NodeRecord } from '../storage/vaultRecords';
import { wipeAccountData } from '../storage/wipeAccountData';
import { SearchIndexer, type FetchNoteText, type VaultDocSource } from './SearchIndexer';
import { chatMessages } from './index';
import { readRecentTerms, rememberTerm, RECENT_TERMS_MAX } from './searchStore';

const ACC = 'acc';
let db: CairnDb;
let indexers: SearchIndexer[] = [];
/** Node has no localStorage; recent terms need one. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

beforeEach(() => {
  db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  vi.stubGlobal('localStorage', memoryStorage());
});
afterEach(() => {
  vi.unstubAllGlobals();
  for (const indexer of indexers) indexer.stop();
  indexers = [];
  db.close();
});

function node(vaultId: string, id: string, name: string, extra: Partial<NodeRecord> = {}): NodeRecord {
  return {
    accountId: ACC,
    vaultId,
    id,
    kind: 'file',
    parentId: null,
    parentKey: '',
    name,
    status: 'ACTIVE',
    size: 10,
    mimeType: 'application/pdf',
    versionCount: 1,
    latestVersionId: `${id}-v1`,
    createdAt: 0,
    updatedAt: 0,
    pendingOpIds: [],
    rejection: null,
    ...extra,
  };
}

/** Writes like the sync projection does: through saveVaultState, which stamps the vault. */
async function project(vaultId: string, change: (nodes: Map<string, NodeRecord>) => void, vaultName?: string): Promise<void> {
  await db.transaction('rw', db.vaults, db.nodes, db.versions, db.memos, async () => {
    const state = await loadVaultState(db, ACC, vaultId);
    if (vaultName !== undefined) {
      state.vault.name = vaultName;
      state.isVaultDirty = true;
    }
    const before = new Map(state.nodes);
    change(state.nodes);
    for (const [id, n] of state.nodes) if (before.get(id) !== n) state.dirtyNodes.add(id);
    await saveVaultState(db, state);
  });
}

async function seed(): Promise<void> {
  await project(
    'v1',
    (nodes) => {
      nodes.set('f1', node('v1', 'f1', 'Quarterly report.pdf'));
      nodes.set('d1', node('v1', 'd1', 'Holiday photos', { kind: 'folder', mimeType: '', latestVersionId: null }));
      nodes.set('n1', node('v1', 'n1', 'Meeting.md', { mimeType: 'text/markdown' }));
    },
    'Family',
  );
  await project('v2', (nodes) => nodes.set('f2', node('v2', 'f2', 'Passport scan.png', { mimeType: 'image/png' })), 'Travel');
}

function indexer(options: { api?: SearchApi; fetchNoteText?: FetchNoteText; delayMs?: number; saveIntervalMs?: number; sources?: VaultDocSource[] } = {}): SearchIndexer {
  const created = new SearchIndexer({
    db,
    accountId: ACC,
    api: options.api ?? createSearchApi(),
    delayMs: options.delayMs ?? 60_000,
    saveIntervalMs: options.saveIntervalMs ?? 0,
    ...(options.fetchNoteText ? { fetchNoteText: options.fetchNoteText } : {}),
    ...(options.sources ? { sources: options.sources } : {}),
  });
  indexers.push(created);
  return created;
}

async function names(search: SearchIndexer, term: string): Promise<string[]> {
  return (await search.api.search(term, 0, 50)).hits.map((h) => h.name).sort();
}

describe('SearchIndexer', () => {
  it('indexes vaults, folders, files and notes with their types and links, showing progress on the first run', async () => {
    await seed();
    const search = indexer({ fetchNoteText: async () => 'lighthouse budget' });
    const progress: Array<string | null> = [];
    search.subscribe(() => {
      const p = search.getStatus().progress;
      progress.push(p ? `${p.done}/${p.total}` : null);
    });
    await search.start();
    expect(progress).toContain('0/2');
    expect(progress).toContain('2/2');
    expect(search.getStatus().progress).toBeNull();

    expect((await search.api.search('fam', 0, 5)).hits).toMatchObject([{ name: 'Family', type: 'DATA_ROOM', url: '/vaults/active/v1/assets' }]);
    expect((await search.api.search('holi', 0, 5)).hits[0]).toMatchObject({ type: 'FOLDER', url: '/vaults/active/v1/assets/folders/d1', vaultName: 'Family' });
    expect((await search.api.search('pass', 0, 5)).hits[0]).toMatchObject({ type: 'STACK_IMAGE', url: '/vaults/active/v2/stack/f2', vaultName: 'Travel' });
    expect((await search.api.search('meet', 0, 5)).hits[0]).toMatchObject({ type: 'NOTE' });
    expect(await names(search, 'lighthouse')).toEqual(['Meeting.md']);
    expect(await db.searchIndex.get(ACC)).toBeDefined();
  });

  it('updates about delayMs after a vault change: renames, hidden and deleted items leave the results', async () => {
    await seed();
    const search = indexer({ delayMs: 30 });
    await search.start();
    await project('v1', (nodes) => {
      nodes.set('f1', { ...nodes.get('f1')!, name: 'Annual report.pdf' });
      nodes.set('d1', { ...nodes.get('d1')!, status: 'REVOKED' });
    });
    await project('v2', (nodes) => nodes.set('f2', { ...nodes.get('f2')!, status: 'DELETED' }));
    // Nothing yet: the update waits for the delay.
    expect(await names(search, 'quarterly')).toEqual(['Quarterly report.pdf']);
    await vi.waitFor(async () => expect(await names(search, 'annual')).toEqual(['Annual report.pdf']), { timeout: 2000 });
    expect(await names(search, 'quarterly')).toEqual([]);
    expect(await names(search, 'holiday')).toEqual([]);
    expect(await names(search, 'passport')).toEqual([]);
    expect(await names(search, 'travel')).toEqual(['Travel']);
  });

  it('reads again only the vaults whose projection changed', async () => {
    await seed();
    const api = createSearchApi();
    const docsOfVault = vi.spyOn(api, 'docsOfVault');
    const search = indexer({ api });
    await search.start();
    docsOfVault.mockClear();
    await project('v2', (nodes) => nodes.set('f3', node('v2', 'f3', 'Boarding pass.pdf')));
    await search.update();
    expect(docsOfVault.mock.calls.map(([vaultId]) => vaultId)).toEqual(['v2']);
    expect(await names(search, 'boarding')).toEqual(['Boarding pass.pdf']);
  });

  it('waits for a vault still being pulled (more than a page behind its head), then indexes it once the pull has caught up', async () => {
    await seed();
    const behind = async (cursor: number, headSeq: number) =>
      db.vaults.where('[accountId+vaultId]').equals([ACC, 'v2']).modify((v) => {
        v.cursor = cursor;
        v.headSeq = headSeq;
      });
    await behind(100, 100_000);
    const api = createSearchApi();
    const docsOfVault = vi.spyOn(api, 'docsOfVault');
    const search = indexer({ api });
    await search.start();
    expect(await names(search, 'passport')).toEqual([]);
    // The pull writes more of it: still not read.
    await project('v2', (nodes) => nodes.set('f3', node('v2', 'f3', 'Boarding pass.pdf')));
    await search.update();
    expect(docsOfVault.mock.calls.map(([vaultId]) => vaultId)).not.toContain('v2');
    // Caught up (a few operations behind is an ordinary update): indexed whole.
    await behind(99_990, 100_000);
    await search.update();
    expect(await names(search, 'passport')).toEqual(['Passport scan.png']);
    expect(await names(search, 'boarding')).toEqual(['Boarding pass.pdf']);
    expect(await names(search, 'quarterly')).toEqual(['Quarterly report.pdf']);
  });

  it('drops a vault that was deleted or that the user no longer belongs to', async () => {
    await seed();
    const search = indexer();
    await search.start();
    await db.vaults.update([ACC, 'v2'], { membershipStatus: 'REVOKED' });
    await db.vaults.update([ACC, 'v1'], { status: 'DELETED' });
    await search.update();
    expect(await names(search, 'pass')).toEqual([]);
    expect(await names(search, 'family')).toEqual([]);
    expect((await search.api.search('quarterly', 0, 5)).total).toBe(0);
  });

  it('R56: a vault that leaves the index leaves the saved index at once, not saveIntervalMs later (another tab may have dropped it)', async () => {
    await seed();
    const search = indexer({ saveIntervalMs: 3_600_000 });
    await search.start();
    const savedNames = async (term: string) => {
      const saved = await db.searchIndex.get(ACC);
      return saved ? SearchIndex.fromSnapshot(saved.snapshot).search(term, 0, 5).hits.map((h) => h.name) : [];
    };
    expect(await savedNames('pass')).toEqual(['Passport scan.png']);
    await db.vaults.update([ACC, 'v2'], { membershipStatus: 'REVOKED' });
    await search.update();
    expect(await savedNames('pass')).toEqual([]);
    expect(await savedNames('quarterly')).toEqual(['Quarterly report.pdf']);
  });

  it('R56: forgetVault takes a vault out now, whatever its record says, and saves', async () => {
    await seed();
    const search = indexer({ saveIntervalMs: 3_600_000 });
    await search.start();
    expect(await search.forgetVault('v2')).toBe(true);
    expect(await names(search, 'pass')).toEqual([]);
    const saved = (await db.searchIndex.get(ACC))!;
    expect(saved.snapshot.docs.filter((d) => d.vaultId === 'v2')).toEqual([]);
    expect(await names(search, 'quarterly')).toEqual(['Quarterly report.pdf']);
    search.stop();
    expect(await search.forgetVault('v1')).toBe(false);
  });

  it('reopens from the saved index without rebuilding or fetching notes again', async () => {
    await seed();
    const fetchNoteText = vi.fn(async () => 'lighthouse budget');
    const first = indexer({ fetchNoteText });
    await first.start();
    first.stop();
    expect(fetchNoteText).toHaveBeenCalledTimes(1);

    // Were the index rebuilt from the projections, these rows (removed behind its back, the
    // stamps untouched) would be missing from it.
    await db.nodes.clear();
    const api = createSearchApi();
    const apply = vi.spyOn(api, 'apply');
    const second = indexer({ api, fetchNoteText });
    await second.start();
    expect(apply).not.toHaveBeenCalled();
    expect(await names(second, 'quar')).toEqual(['Quarterly report.pdf']);
    expect(await names(second, 'lighthouse')).toEqual(['Meeting.md']);
    expect(fetchNoteText).toHaveBeenCalledTimes(1);
  });

  it("reads a note's new version, and tries again later when a note cannot be read", async () => {
    await seed();
    let body: string | Error = new Error('offline');
    const fetchNoteText = vi.fn(async () => {
      if (body instanceof Error) throw body;
      return body;
    });
    const search = indexer({ fetchNoteText });
    await search.start();
    expect(await names(search, 'lighthouse')).toEqual([]);
    body = 'lighthouse budget';
    await search.update();
    expect(await names(search, 'lighthouse')).toEqual(['Meeting.md']);

    body = 'harbour plans';
    await project('v1', (nodes) => nodes.set('n1', { ...nodes.get('n1')!, latestVersionId: 'n1-v2' }));
    await search.update();
    expect(fetchNoteText).toHaveBeenLastCalledWith('v1', 'n1', 'n1-v2');
    expect(await names(search, 'harbour')).toEqual(['Meeting.md']);
    expect(await names(search, 'lighthouse')).toEqual([]);
  });

  it('saves at once after the first indexing, then at most every saveIntervalMs, keys and index together', async () => {
    await seed();
    const search = indexer({ saveIntervalMs: 150 });
    await search.start();
    const firstSave = (await db.searchIndex.get(ACC))!;
    await project('v2', (nodes) => nodes.set('f3', node('v2', 'f3', 'Boarding pass.pdf')));
    await search.update();
    expect(await names(search, 'boarding')).toEqual(['Boarding pass.pdf']);
    expect((await db.searchIndex.get(ACC))!.savedAt).toBe(firstSave.savedAt);
    await vi.waitFor(async () => expect((await db.searchIndex.get(ACC))!.savedAt).toBeGreaterThan(firstSave.savedAt), { timeout: 2000 });
    search.stop();
    const reopened = indexer();
    await reopened.start();
    expect(await names(reopened, 'boarding')).toEqual(['Boarding pass.pdf']);
  });

  it('takes documents of other kinds (chat memos) from a source, and drops them when the source does', async () => {
    await seed();
    let memos = [{ id: 'm1', text: 'Bring the tide tables' }];
    const memoSource: VaultDocSource = async (_db, _accountId, vault) =>
      vault.vaultId === 'v1' ? memos.map((m) => ({ id: m.id, type: 'MEMO' as const, vaultId: 'v1', vaultName: vault.name, name: m.text, url: '/vaults/active/v1/chat' })) : [];
    const search = indexer({ sources: [memoSource] });
    await search.start();
    expect((await search.api.search('tide', 0, 5)).hits).toMatchObject([{ type: 'MEMO', name: 'Bring the tide tables' }]);
    memos = [];
    await project('v1', () => undefined, 'Family');
    await search.update();
    expect((await search.api.search('tide', 0, 5)).total).toBe(0);
  });

  it('indexes chat messages from the memos the projection wrote: a word of a later line finds it, the first line names it', async () => {
    await seed();
    await db.transaction('rw', db.vaults, db.nodes, db.versions, db.memos, async () => {
      const state = await loadVaultState(db, ACC, 'v1');
      const memo = { accountId: ACC, vaultId: 'v1', memoId: 'm1', text: 'Camp at dusk\nbring the lantern oil', authorKey: 'a'.repeat(64), createdAt: 1, order: 1, reactions: [], pendingOpIds: [], rejection: null };
      state.memos.set('m1', memo);
      state.dirtyMemos.add('m1');
      await saveVaultState(db, state);
    });
    const search = indexer({ sources: [chatMessages] });
    await search.start();
    expect((await search.api.search('lantern', 0, 5)).hits).toMatchObject([{ id: 'm1', type: 'MEMO', name: 'Camp at dusk', url: '/vaults/active/v1/chat' }]);
  });

  it('keeps the last few search terms, newest first, once each', () => {
    for (const term of ['alpha', 'beta', 'Alpha', 'gamma', 'delta', 'epsilon', 'zeta']) rememberTerm(ACC, term);
    expect(readRecentTerms(ACC)).toEqual(['zeta', 'epsilon', 'delta', 'gamma', 'Alpha'].slice(0, RECENT_TERMS_MAX));
    expect(readRecentTerms('someone else')).toEqual([]);
  });

  it('log out wipes the saved index and the recent terms', async () => {
    await seed();
    const search = indexer();
    await search.start();
    rememberTerm(ACC, 'quarterly');
    rememberTerm('acc2', 'kept');
    expect(readRecentTerms(ACC)).toEqual(['quarterly']);
    // Still running (log out may come before the shell unmounts): the wipe stops it first, so a
    // change after the wipe saves nothing.
    await project('v1', (nodes) => nodes.set('f9', node('v1', 'f9', 'Late.pdf')));
    await wipeAccountData(ACC, db);
    await search.update();
    expect(await db.searchIndex.get(ACC)).toBeUndefined();
    expect(readRecentTerms(ACC)).toEqual([]);
    expect(readRecentTerms('acc2')).toEqual(['kept']);
  });
});
