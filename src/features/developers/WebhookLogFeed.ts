/**
 * The webhook delivery log as the Developers page shows it (spec 002 sections 7 and 8): the first
 * page, then each 'See more' appends the page its `nextToken` names until the server says there is
 * no more (null); entries the socket announces are put on top as they come.
 *
 * The original app's 'See more' read a misspelt field, so its extra pages never appended: here the
 * token kept is the one the last page answered, and a page's entries are appended to those shown.
 * One entry may reach the page twice (announced live, then in a page read after it): it is shown
 * once, by id.
 */
import type { ApiClient } from '../../platform/apiClient';
import type { WebhookLog } from '../../protocol/developers';
import { getWebhookLogPage } from './developersApi';
import { failureText } from './developerTexts';

export interface WebhookLogState {
  status: 'loading' | 'error' | 'ready';
  /** Newest first. */
  items: WebhookLog[];
  /** The token for the next page; null when the last page is shown. */
  nextToken: string | null;
  isLoadingMore: boolean;
  /** Why the first page, or the last 'See more', failed. */
  error: string | null;
}

const LOAD_FAILED = 'The delivery log could not be loaded. Check your connection and try again.';

/** `items` then those of `more` not among them, in order. */
export function mergeLogs(items: readonly WebhookLog[], more: readonly WebhookLog[]): WebhookLog[] {
  const seen = new Set(items.map((log) => log.id));
  const merged = [...items];
  for (const log of more) {
    if (seen.has(log.id)) continue;
    seen.add(log.id);
    merged.push(log);
  }
  return merged;
}

export class WebhookLogFeed {
  private state: WebhookLogState = { status: 'loading', items: [], nextToken: null, isLoadingMore: false, error: null };
  private readonly listeners = new Set<() => void>();
  /** Bumped by each first-page read, so an older read that answers late is dropped. */
  private generation = 0;

  constructor(private readonly api: ApiClient) {}

  get current(): WebhookLogState {
    return this.state;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Reads the first page. Entries announced while it loads are kept on top. */
  async loadFirst(): Promise<void> {
    const generation = ++this.generation;
    this.set({ ...this.state, status: 'loading', error: null, isLoadingMore: false });
    try {
      const page = await getWebhookLogPage(this.api, null);
      if (generation !== this.generation) return;
      // What is on screen before the read (live entries) is newer than the page, or in it.
      this.set({ status: 'ready', items: mergeLogs(this.state.items, page.items), nextToken: page.nextToken, isLoadingMore: false, error: null });
    } catch (error) {
      if (generation !== this.generation) return;
      this.set({ ...this.state, status: 'error', error: failureText(error, LOAD_FAILED) });
    }
  }

  /** 'See more': appends the next page. Does nothing at the end or while a page loads. */
  async loadMore(): Promise<void> {
    const { nextToken, status, isLoadingMore } = this.state;
    if (status !== 'ready' || nextToken === null || isLoadingMore) return;
    const generation = this.generation;
    this.set({ ...this.state, isLoadingMore: true, error: null });
    try {
      const page = await getWebhookLogPage(this.api, nextToken);
      if (generation !== this.generation) return;
      this.set({ ...this.state, items: mergeLogs(this.state.items, page.items), nextToken: page.nextToken, isLoadingMore: false });
    } catch (error) {
      if (generation !== this.generation) return;
      this.set({ ...this.state, isLoadingMore: false, error: failureText(error, LOAD_FAILED) });
    }
  }

  /**
   * The socket opened again: entries delivered while it was down were announced to no one, so the
   * first page is read and those not shown go on top (the pages already shown, and 'See more',
   * stay as they are). Quiet: a failure keeps what is shown. Only the newest page is read, so more
   * than a page of deliveries while the socket was down shows after the page is opened again.
   */
  async catchUp(): Promise<void> {
    if (this.state.status !== 'ready') return this.loadFirst();
    const generation = this.generation;
    try {
      const page = await getWebhookLogPage(this.api, null);
      if (generation !== this.generation) return;
      this.set({ ...this.state, items: mergeLogs(page.items, this.state.items) });
    } catch {
      // Offline again, or the server is busy: the log shown stays; the next reopen tries again.
    }
  }

  /** A new entry from the socket: on top, unless it is shown already. */
  receive(log: WebhookLog): void {
    if (this.state.items.some((item) => item.id === log.id)) return;
    this.set({ ...this.state, items: [log, ...this.state.items] });
  }

  private set(next: WebhookLogState): void {
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}
