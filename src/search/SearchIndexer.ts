/**
 * Keeps one account's search index (in the search worker) up to date with the decrypted
 * projections in Dexie, and saved on this device (docs/SYNC_SPEC.md R32-R33).
 *
 * Start: the saved snapshot is imported, never rebuilt. Then, about 5 s after any vault record of
 * the account changes (every projection write stamps its vault record, so a Dexie live query on
 * the vault records is the change feed), the vaults whose `vaultIndexKey` moved are read again
 * and diffed against what the index holds for them; vaults gone, deleted or left are dropped. A
 * vault still far behind its head (a first sync) waits until its pull has caught up.
 * Small notes whose latest version is not the indexed one are then downloaded and decrypted
 * through the ordinary download path and their words indexed. Each run ends by saving.
 */
import { liveQuery, type Subscription } from 'dexie';
import { VAULT_LIMITS } from '../protocol/vaults';
import type { CairnDb } from '../storage/db';
import type { VaultRecord } from '../storage/vaultRecords';
import type { SearchApi, SearchDoc, SearchHit } from '../../workers/search/SearchApi';
import { isSearchableVault, notesToRead, vaultDocs, vaultIndexKey } from './searchDocs';
import { onAccountWipe, onVaultWipe, type SearchIndexRecord } from './searchStore';

/** Spec 000 section 9: the search index is updated about 5 s after a vault change. */
export const SEARCH_UPDATE_DELAY_MS = 5000;

/** The saved index is rewritten at most this often (a save writes all of it). */
export const SEARCH_SAVE_INTERVAL_MS = 30_000;

/** Reads a note's latest version as text; rejects when it cannot (offline, not uploaded yet). */
export type FetchNoteText = (vaultId: string, fileId: string, versionId: string) => Promise<string>;

export interface SearchIndexerStatus {
  /** Bumped after every change to the index, so screens query again. */
  revision: number;
  /** Set while the first indexing of this device runs: 'Indexing vaults (done/total)'. */
  progress: { done: number; total: number } | null;
  /** The saved index is loaded (or there was none): searching gives real answers. */
  isReady: boolean;
}

/**
 * More documents of a vault beyond its vault record and nodes (chat memos, say), read whenever the
 * vault is indexed again. A source's own writes must change the vault's `vaultIndexKey` (a
 * projection write does) for its changes to be picked up.
 */
export type VaultDocSource = (db: CairnDb, accountId: string, vault: VaultRecord) => Promise<SearchDoc[]>;

export interface SearchIndexerOptions {
  db: CairnDb;
  accountId: string;
  api: SearchApi;
  fetchNoteText?: FetchNoteText;
  delayMs?: number;
  saveIntervalMs?: number;
  sources?: VaultDocSource[];
}

/**
 * A vault more than a full page of operations behind its head is still being pulled (a first
 * sync of a large vault): it is indexed once its pull has caught up, rather than read whole again
 * every few seconds while the pull writes it. What it held before stays searchable meanwhile.
 */
export function isStillPulling(vault: VaultRecord): boolean {
  return vault.headSeq - vault.cursor > VAULT_LIMITS.PULL_PAGE_MAX;
}

const sameHit = (a: SearchHit, b: SearchDoc) =>
  a.name === b.name && a.url === b.url && a.type === b.type && a.vaultName === b.vaultName && a.vaultId === b.vaultId;

export class SearchIndexer {
  private status: SearchIndexerStatus = { revision: 0, progress: null, isReady: false };
  private readonly listeners = new Set<() => void>();
  private vaultKeys: Record<string, string> = {};
  private hasSaved = false;
  private subscription: Subscription | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private lastSavedAt = 0;
  private offWipe: (() => void) | null = null;
  private offVaultWipe: (() => void) | null = null;
  /** Vaults whose data left the device (wipeVaultData): removed by the next run, whatever their record says. */
  private readonly forgotten = new Set<string>();
  /** The next run saves at once instead of within `saveIntervalMs`: it removes a vault's names. */
  private mustSaveNow = false;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  readonly api: SearchApi;

  constructor(private readonly options: SearchIndexerOptions) {
    this.api = options.api;
  }

  getStatus = (): SearchIndexerStatus => this.status;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private setStatus(patch: Partial<SearchIndexerStatus>): void {
    this.status = { ...this.status, ...patch };
    for (const listener of this.listeners) listener();
  }

  /** Loads the saved index, indexes what changed since, then follows vault changes. */
  async start(): Promise<void> {
    const { db, accountId } = this.options;
    this.offWipe = onAccountWipe((wiped) => {
      if (wiped === accountId) this.stop();
    });
    this.offVaultWipe = onVaultWipe((wipedAccount, vaultId) => (wipedAccount === accountId ? this.forgetVault(vaultId) : Promise.resolve(false)));
    const saved = await db.searchIndex.get(accountId);
    if (this.stopped) return;
    if (saved?.snapshot.format === 1) {
      await this.api.load(saved.snapshot);
      this.vaultKeys = { ...saved.vaultKeys };
      this.hasSaved = true;
    } else {
      await this.api.load(null);
    }
    if (this.stopped) return;
    this.setStatus({ isReady: true, revision: this.status.revision + 1 });
    await this.update();
    if (this.stopped) return;
    // Every answer schedules a run, the first too: a change between the run above and the
    // subscription would be missed otherwise, and a run with nothing changed only compares keys.
    this.subscription = liveQuery(() => db.vaults.where('accountId').equals(accountId).toArray()).subscribe({
      next: () => this.schedule(),
      error: () => undefined,
    });
    // Notes that could not be read offline are read again once the network is back.
    if (typeof window !== 'undefined') window.addEventListener('online', this.onOnline);
  }

  private readonly onOnline = () => this.schedule();

  /** Stops following changes and empties the worker's in-memory index (log out leaves nothing behind). */
  stop(): void {
    this.stopped = true;
    this.offWipe?.();
    this.offVaultWipe?.();
    this.subscription?.unsubscribe();
    if (typeof window !== 'undefined') window.removeEventListener('online', this.onOnline);
    void this.api.load(null).catch(() => undefined);
    if (this.timer) clearTimeout(this.timer);
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.timer = null;
    this.saveTimer = null;
    this.listeners.clear();
  }

  /** One update about `delayMs` after the first change seen (later changes ride along). */
  private schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.update();
    }, this.options.delayMs ?? SEARCH_UPDATE_DELAY_MS);
  }

  /**
   * A vault's data left the device (its membership ended, docs/SYNC_SPEC.md R56): its documents
   * leave the index now, not after SEARCH_UPDATE_DELAY_MS, and the index is saved at once, since
   * the saved copy holds their names. Answers whether this indexer did it (false while the saved
   * index is still loading: the first run then finds the vault gone, drops it and saves).
   */
  async forgetVault(vaultId: string): Promise<boolean> {
    if (this.stopped || !this.status.isReady) return false;
    this.forgotten.add(vaultId);
    this.mustSaveNow = true;
    // A run in progress may be putting the vault's documents back: update() runs once more after it.
    await this.update();
    return !this.stopped;
  }

  /** Runs one update now (one at a time; a call during a run makes one more run after it). */
  async update(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.runOnce();
        } while (this.again && !this.stopped);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private async runOnce(): Promise<void> {
    const { db, accountId } = this.options;
    const vaults = await db.vaults.where('accountId').equals(accountId).toArray();
    const searchable = new Map(vaults.filter(isSearchableVault).map((v) => [v.vaultId, v]));
    const gone = [...new Set([...Object.keys(this.vaultKeys).filter((id) => !searchable.has(id)), ...this.forgotten])];
    this.forgotten.clear();
    const changed = [...searchable.values()].filter((v) => !gone.includes(v.vaultId) && !isStillPulling(v) && this.vaultKeys[v.vaultId] !== vaultIndexKey(v));
    // A vault that leaves the index leaves the saved copy at once too: it holds the vault's names.
    if (gone.length) this.mustSaveNow = true;
    if (!gone.length && !changed.length) {
      if (this.mustSaveNow) await this.saveNow();
      return;
    }

    const showsProgress = !this.hasSaved;
    let done = 0;
    if (showsProgress) this.setStatus({ progress: { done, total: changed.length } });

    for (const vaultId of gone) {
      const docs = await this.api.docsOfVault(vaultId);
      if (this.stopped) return;
      await this.api.apply({ put: [], remove: docs.map((d) => d.id) });
      delete this.vaultKeys[vaultId];
    }

    const notes: Array<{ vaultId: string; fileId: string; versionId: string }> = [];
    for (const vault of changed) {
      if (this.stopped) return;
      const key = vaultIndexKey(vault);
      const nodes = await db.nodes.where('[accountId+vaultId]').equals([accountId, vault.vaultId]).toArray();
      const docs = vaultDocs(vault, nodes);
      for (const source of this.options.sources ?? []) docs.push(...(await source(db, accountId, vault)));
      const indexed = new Map((await this.api.docsOfVault(vault.vaultId)).map((d) => [d.id, d]));
      const wanted = new Set(docs.map((d) => d.id));
      // Checked right before each change is sent: after stop() the worker may already hold the
      // next account's index.
      if (this.stopped) return;
      await this.api.apply({
        put: docs.filter((d) => {
          const old = indexed.get(d.id);
          return !old || !sameHit(old, d);
        }),
        remove: [...indexed.keys()].filter((id) => !wanted.has(id)),
      });
      this.vaultKeys[vault.vaultId] = key;
      for (const note of notesToRead(nodes, new Map([...indexed].map(([id, d]) => [id, d.textVersion])))) {
        notes.push({ vaultId: vault.vaultId, fileId: note.id, versionId: note.latestVersionId! });
      }
      if (showsProgress) this.setStatus({ progress: { done: ++done, total: changed.length } });
    }
    this.setStatus({ revision: this.status.revision + 1 });

    await this.readNotes(notes);
    if (this.stopped) return;
    await (this.mustSaveNow ? this.saveNow() : this.saveSoon());
    this.setStatus({ progress: null, revision: this.status.revision + 1 });
  }

  /**
   * Saves now after the first indexing, else at most every `saveIntervalMs`: a save writes the
   * whole index, and a busy sync changes vaults every few seconds. Losing the last unsaved
   * changes costs nothing but work, since the saved vault keys always match the saved index.
   */
  private async saveSoon(): Promise<void> {
    const wait = this.lastSavedAt + (this.options.saveIntervalMs ?? SEARCH_SAVE_INTERVAL_MS) - Date.now();
    if (!this.hasSaved || wait <= 0) return this.save();
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = null;
      if (!this.stopped) void this.save().catch(() => undefined);
    }, wait);
  }

  private async saveNow(): Promise<void> {
    this.mustSaveNow = false;
    await this.save();
  }

  /** Indexes note bodies one at a time; a note that cannot be read makes its vault be read again next run. */
  private async readNotes(notes: Array<{ vaultId: string; fileId: string; versionId: string }>): Promise<void> {
    const fetchText = this.options.fetchNoteText;
    if (!fetchText) return;
    for (const { vaultId, fileId, versionId } of notes) {
      if (this.stopped) return;
      try {
        const text = await fetchText(vaultId, fileId, versionId);
        const doc = await this.api.getDoc(fileId);
        if (!doc || this.stopped) continue;
        await this.api.apply({ put: [{ ...doc, text, textVersion: versionId }], remove: [] });
      } catch {
        delete this.vaultKeys[vaultId];
      }
    }
  }

  private async save(): Promise<void> {
    const { db, accountId } = this.options;
    // Copied as the export is asked for: a vault's key is set only once its changes were applied,
    // and the worker answers in order, so the keys never claim more than the snapshot holds.
    const vaultKeys = { ...this.vaultKeys };
    const snapshot = await this.api.exportSnapshot();
    // Stopped meanwhile (log out): nothing may be written after the wipe.
    if (this.stopped) return;
    const record: SearchIndexRecord = { accountId, snapshot, vaultKeys, savedAt: Date.now() };
    await db.searchIndex.put(record);
    this.hasSaved = true;
    this.lastSavedAt = Date.now();
  }
}
