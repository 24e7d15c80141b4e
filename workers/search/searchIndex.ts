/**
 * The on-device search index (spec 000 sections 2, 3 and 7): prefix and fuzzy matching on names,
 * whole-word matching in note text. Pure and synchronous so the search worker, the unit tests and
 * the Node bench (tests/bench/search.ts) run exactly this code.
 *
 * Two flexsearch 0.8 indexes sit side by side: `names` with forward tokenisation (every prefix of
 * every word is a key, so a keystroke is one map lookup) and `texts` with strict tokenisation (a
 * note body of 1 MB would make far too many prefix keys). Fuzziness is ours: flexsearch's
 * LatinBalance encoder already folds case, accents and common spelling variants (kept for words of
 * 5 letters or more; a shorter word must start a name word as typed); for those we also scan the
 * vocabulary of name words for ones within 20% edits of the typed word (spec 000 section 7,
 * "fuzzy 0.2"), compared on the word's prefix of the typed length so a fuzzy match still works
 * while the word is half typed.
 *
 * Persistence is flexsearch's own export/import plus our document table: reopening imports the
 * maps instead of encoding every name again. (flexsearch 0.8.212 cannot import an index created
 * with `fastupdate`, so removals walk the maps; they come a few at a time from sync.)
 */
import { Charset, Index } from 'flexsearch';

/** Spec 000 section 3 "Search document" types. */
export type SearchDocType = 'DATA_ROOM' | 'MEMO' | 'STACK' | 'STACK_DOCUMENT' | 'STACK_IMAGE' | 'FOLDER' | 'NOTE';

/** One thing that can be found. Generic on purpose: chat memos are one more producer of these. */
export interface SearchDoc {
  /** Unique across the account: a vault, node or memo id. */
  id: string;
  type: SearchDocType;
  vaultId: string;
  /** The vault's name, shown under the item's (spec: sourceName). */
  vaultName: string;
  name: string;
  /** In-app path that opens it. */
  url: string;
  /** Body words (notes, memos); absent when not (yet) known. */
  text?: string;
  /** Which content `text` came from (a note's version id), so it is fetched once per version. */
  textVersion?: string;
}

/** A document as a result: everything but its text. */
export type SearchHit = Omit<SearchDoc, 'text'>;

export interface SearchPage {
  total: number;
  hits: SearchHit[];
}

/** What `exportSnapshot` gives and `fromSnapshot` takes: plain JSON-safe data. */
export interface SearchSnapshot {
  format: 1;
  docs: SearchHit[];
  /** Each document's number in the flexsearch maps, in `docs` order. */
  numbers: number[];
  names: Record<string, string>;
  texts: Record<string, string>;
}

/** Spec 000 section 7: fuzzy 0.2 (a fifth of a word's letters may differ). */
export const FUZZY_RATIO = 0.2;
/** Matches considered per word: a one-letter term in a huge index need not be counted exactly. */
export const MATCH_LIMIT = 5000;

const newNameIndex = () => new Index({ tokenize: 'forward', encoder: Charset.LatinBalance, resolution: 3 });
const newTextIndex = () => new Index({ tokenize: 'strict', encoder: Charset.LatinBalance, resolution: 3 });

/** Lower case, accents stripped, split on anything not a letter or digit. */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Edit distance between `a` and `b` counting a swap of two neighbouring letters as one edit (the
 * commonest typo), or `max + 1` as soon as it must exceed `max`.
 */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        value = Math.min(value, beforePrevious[j - 2]! + 1);
      }
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}

export class SearchIndex {
  /**
   * Documents by their number in the flexsearch indexes: numbers rather than the 36-character
   * ids keep the saved maps less than half as large and the lookups faster.
   */
  private readonly docs = new Map<number, SearchHit>();
  private readonly numbers = new Map<string, number>();
  private nextNumber = 1;
  /** Name words -> how many documents use them (the fuzzy scan's vocabulary). */
  private readonly vocabulary = new Map<string, number>();
  private readonly hasText = new Set<number>();
  /** Document numbers by vault, so a changed vault is diffed without a scan of everything. */
  private readonly byVault = new Map<string, Set<number>>();
  /** The last term's matches: a keystroke asks for suggestions and a results page of one term. */
  private lastMatch: { term: string; numbers: number[] } | null = null;

  private constructor(
    private readonly names: Index,
    private readonly texts: Index,
  ) {}

  static create(): SearchIndex {
    return new SearchIndex(newNameIndex(), newTextIndex());
  }

  /** Reopens a saved index without encoding anything again. */
  static fromSnapshot(snapshot: SearchSnapshot): SearchIndex {
    const index = new SearchIndex(newNameIndex(), newTextIndex());
    for (const [key, data] of Object.entries(snapshot.names)) index.names.import(key, data);
    for (const [key, data] of Object.entries(snapshot.texts)) index.texts.import(key, data);
    snapshot.docs.forEach((doc, i) => {
      const number = snapshot.numbers[i]!;
      index.setDoc(number, doc);
      index.nextNumber = Math.max(index.nextNumber, number + 1);
      index.countWords(doc.name, 1);
      if (doc.textVersion !== undefined) index.hasText.add(number);
    });
    return index;
  }

  exportSnapshot(): SearchSnapshot {
    const names: Record<string, string> = {};
    const texts: Record<string, string> = {};
    this.names.export((key, data) => void (names[key] = data));
    this.texts.export((key, data) => void (texts[key] = data));
    return { format: 1, docs: [...this.docs.values()], numbers: [...this.docs.keys()], names, texts };
  }

  get size(): number {
    return this.docs.size;
  }

  get(id: string): SearchHit | undefined {
    const number = this.numbers.get(id);
    return number === undefined ? undefined : this.docs.get(number);
  }

  /** All documents of one vault (the indexer diffs a changed vault against them). */
  docsOfVault(vaultId: string): SearchHit[] {
    return [...(this.byVault.get(vaultId) ?? [])].map((n) => this.docs.get(n)!);
  }

  /**
   * Adds or replaces a document. A document given without `text` keeps the text already indexed
   * for it, as long as it names the same `textVersion` (or none): a rename must not forget a
   * note's words, a new version must.
   */
  put(doc: SearchDoc): void {
    this.lastMatch = null;
    const existing = this.numbers.get(doc.id);
    const number = existing ?? this.nextNumber++;
    const previous = existing === undefined ? undefined : this.docs.get(existing);
    const { text, ...hit } = doc;
    const keepsText = text === undefined && previous?.textVersion !== undefined && (doc.textVersion === undefined || doc.textVersion === previous.textVersion);
    if (keepsText) hit.textVersion = previous!.textVersion;
    else if (text === undefined) delete hit.textVersion;
    if (previous && previous.name !== hit.name) {
      this.names.remove(number);
      this.countWords(previous.name, -1);
    }
    if (!previous || previous.name !== hit.name) {
      this.names.add(number, hit.name);
      this.countWords(hit.name, 1);
    }
    if (!keepsText && this.hasText.has(number)) {
      this.texts.remove(number);
      this.hasText.delete(number);
    }
    if (text !== undefined) {
      this.texts.add(number, text);
      this.hasText.add(number);
    }
    if (previous && previous.vaultId !== hit.vaultId) this.byVault.get(previous.vaultId)?.delete(number);
    this.setDoc(number, hit);
  }

  remove(id: string): void {
    const number = this.numbers.get(id);
    if (number === undefined) return;
    this.lastMatch = null;
    const previous = this.docs.get(number)!;
    this.names.remove(number);
    this.countWords(previous.name, -1);
    if (this.hasText.delete(number)) this.texts.remove(number);
    this.docs.delete(number);
    this.numbers.delete(id);
    this.byVault.get(previous.vaultId)?.delete(number);
  }

  /**
   * Every document matching all words of `term`, best first: a word matches a name word it starts
   * (or nearly starts, see FUZZY_RATIO) or a whole word of the text. Name matches come before
   * text-only ones.
   */
  search(term: string, offset = 0, limit = 20): SearchPage {
    const numbers = this.match(term);
    return { total: numbers.length, hits: numbers.slice(offset, offset + limit).map((n) => this.docs.get(n)!) };
  }

  /** The first `limit` matches, for the autocomplete list. */
  suggest(term: string, limit = 8): SearchHit[] {
    return this.search(term, 0, limit).hits;
  }

  private setDoc(number: number, doc: SearchHit): void {
    this.docs.set(number, doc);
    this.numbers.set(doc.id, number);
    let numbers = this.byVault.get(doc.vaultId);
    if (!numbers) {
      numbers = new Set();
      this.byVault.set(doc.vaultId, numbers);
    }
    numbers.add(number);
  }

  private match(term: string): number[] {
    if (this.lastMatch?.term === term) return this.lastMatch.numbers;
    const numbers = this.matchAll(term);
    this.lastMatch = { term, numbers };
    return numbers;
  }

  private matchAll(term: string): number[] {
    const words = wordsOf(term);
    if (!words.length) return [];
    let result: number[] | null = null;
    for (const word of words) {
      const numbers = this.matchWord(word);
      if (result === null) result = numbers;
      else {
        const keep = new Set(numbers);
        result = result.filter((n) => keep.has(n));
      }
      if (!result.length) break;
    }
    return (result ?? []).filter((n) => this.docs.has(n));
  }

  private matchWord(word: string): number[] {
    const ordered: number[] = [];
    const seen = new Set<number>();
    const take = (numbers: Iterable<unknown>) => {
      for (const n of numbers as Iterable<number>) {
        if (!seen.has(n)) {
          seen.add(n);
          ordered.push(n);
        }
      }
    };
    const named = this.names.search(word, { limit: MATCH_LIMIT }) as number[];
    const isFuzzy = Math.floor(word.length * FUZZY_RATIO) > 0;
    // The encoder folds spelling (b/p, c/g/k...), which is too loose for a short word: 'pic' found
    // 'big-5mb.bin'. Under five letters a name word must start with the word as typed.
    take(isFuzzy ? named : named.filter((n) => this.hasWordStarting(n, word)));
    if (isFuzzy) {
      for (const near of this.nearWords(word)) take(this.names.search(near, { limit: MATCH_LIMIT }));
    }
    take(this.texts.search(word, { limit: MATCH_LIMIT }));
    return ordered;
  }

  /**
   * Name words whose prefix of `word`'s length is within FUZZY_RATIO edits of it (so words of 5
   * letters or more). Like most fuzzy engines, the first letter must be right: typos there are
   * rare, and it cuts the scan to a few percent of the vocabulary, which keeps a keystroke fast.
   */
  private nearWords(word: string): string[] {
    const max = Math.floor(word.length * FUZZY_RATIO);
    const near: string[] = [];
    for (const candidate of this.vocabulary.keys()) {
      if (candidate.charCodeAt(0) !== word.charCodeAt(0) || candidate.length < word.length - max) continue;
      const head = candidate.slice(0, word.length);
      if (head === word) continue;
      if (boundedDistance(word, head, max) <= max) near.push(candidate);
    }
    return near;
  }

  private hasWordStarting(number: number, word: string): boolean {
    const doc = this.docs.get(number);
    return doc !== undefined && wordsOf(doc.name).some((w) => w.startsWith(word));
  }

  private countWords(name: string, delta: 1 | -1): void {
    for (const word of new Set(wordsOf(name))) {
      const count = (this.vocabulary.get(word) ?? 0) + delta;
      if (count > 0) this.vocabulary.set(word, count);
      else this.vocabulary.delete(word);
    }
  }
}
