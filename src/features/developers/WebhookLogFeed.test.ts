/**
 * The delivery log's paging and live entries (spec 002 sections 7, 8 and 10; issue 24): 'See more'
 * appends the page the last one's nextToken names until there is none (the original app's pages
 * never appended), and an entry announced on the socket goes on top, shown once whatever else
 * brings it. The app's real API client, over a fake server at its fetch port.
 */
import { describe, expect, it } from 'vitest';
import { WEBHOOK_LOG_PAGE } from '../../protocol/developers';
import { publishWebhookLog, subscribeWebhookLogs } from '../../sync/webhookLogStream';
import { fakeDeveloperServer, webhookLog } from './testing';
import { WebhookLogFeed } from './WebhookLogFeed';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => webhookLog(from + i));
const ids = (feed: WebhookLogFeed) => feed.current.items.map((log) => log.id);

describe('webhook delivery log', () => {
  it("shows 10 a page; 'See more' appends the next page until the last, then is gone", async () => {
    const server = fakeDeveloperServer(range(0, 25));
    const feed = new WebhookLogFeed(server.api);

    await feed.loadFirst();
    expect(feed.current.status).toBe('ready');
    expect(ids(feed)).toEqual(range(0, 10).map((log) => log.id));
    expect(feed.current.nextToken).not.toBeNull();

    await feed.loadMore();
    expect(ids(feed)).toEqual(range(0, 20).map((log) => log.id));

    await feed.loadMore();
    expect(ids(feed)).toEqual(range(0, 25).map((log) => log.id));
    // The end: no token, so the page shows no 'See more' and a stray call asks for nothing.
    expect(feed.current.nextToken).toBeNull();
    await feed.loadMore();
    expect(server.requests).toEqual([
      `GET /api/webhooks/logs?limit=${WEBHOOK_LOG_PAGE}`,
      `GET /api/webhooks/logs?limit=${WEBHOOK_LOG_PAGE}&nextToken=10`,
      `GET /api/webhooks/logs?limit=${WEBHOOK_LOG_PAGE}&nextToken=20`,
    ]);
  });

  it('says when there are no deliveries (an empty first page, no next one)', async () => {
    const feed = new WebhookLogFeed(fakeDeveloperServer([]).api);
    await feed.loadFirst();
    expect(feed.current).toMatchObject({ status: 'ready', items: [], nextToken: null });
  });

  it('puts a new entry from the socket on top, once, even when a later page holds it too', async () => {
    const server = fakeDeveloperServer(range(1, 16));
    const feed = new WebhookLogFeed(server.api);
    await feed.loadFirst();

    const fresh = webhookLog(0, { event: 'storage.transaction.committed' });
    feed.receive(fresh);
    feed.receive(fresh);
    expect(ids(feed).slice(0, 2)).toEqual([fresh.id, 'log-001']);
    expect(ids(feed)).toHaveLength(11);

    // The server's log moved on by the fresh entry: offsets shift, and page 2 repeats log-010.
    server.logs.unshift(fresh);
    await feed.loadMore();
    expect(ids(feed)).toEqual([fresh.id, ...range(1, 16).map((log) => log.id)]);
    expect(new Set(ids(feed)).size).toBe(ids(feed).length);
  });

  it('keeps an entry announced while the first page loads, on top of it', async () => {
    const server = fakeDeveloperServer(range(1, 4));
    const feed = new WebhookLogFeed(server.api);
    const loading = feed.loadFirst();
    // log-001 is announced, then log-000 (newer); the page read before them ends up holding log-001.
    feed.receive(webhookLog(1));
    feed.receive(webhookLog(0));
    await loading;
    expect(ids(feed)).toEqual(['log-000', 'log-001', 'log-002', 'log-003']);
  });

  it("keeps what is shown when 'See more' fails, says why, and the same page can be asked again", async () => {
    const server = fakeDeveloperServer(range(0, 15));
    const feed = new WebhookLogFeed(server.api);
    await feed.loadFirst();
    server.failNext = { status: 503, message: 'The server is busy. Try again in a minute.' };
    await feed.loadMore();
    expect(feed.current).toMatchObject({ status: 'ready', isLoadingMore: false, error: 'The server is busy. Try again in a minute.' });
    expect(ids(feed)).toHaveLength(10);
    await feed.loadMore();
    expect(feed.current.error).toBeNull();
    expect(ids(feed)).toHaveLength(15);
  });

  it('hears the entries the realtime socket passes on while the page listens, and none after', async () => {
    const feed = new WebhookLogFeed(fakeDeveloperServer([]).api);
    await feed.loadFirst();
    const unsubscribe = subscribeWebhookLogs((log) => feed.receive(log));
    publishWebhookLog(webhookLog(2));
    publishWebhookLog(webhookLog(1));
    unsubscribe();
    publishWebhookLog(webhookLog(0));
    expect(ids(feed)).toEqual(['log-001', 'log-002']);
  });

  it('catches up when the socket opens again: entries delivered meanwhile go on top, the pages shown stay', async () => {
    const server = fakeDeveloperServer(range(3, 18));
    const feed = new WebhookLogFeed(server.api);
    await feed.loadFirst();
    await feed.loadMore();
    expect(ids(feed)).toHaveLength(15);

    server.logs.unshift(webhookLog(0), webhookLog(1), webhookLog(2));
    await feed.catchUp();
    expect(ids(feed)).toEqual(range(0, 18).map((log) => log.id));
    expect(feed.current.nextToken).toBeNull();

    server.isOffline = true;
    await feed.catchUp();
    expect(feed.current.status).toBe('ready');
    expect(ids(feed)).toHaveLength(18);
  });
});
