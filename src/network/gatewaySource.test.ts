/**
 * The gateway port of the reader (R86) against a fake gateway at the fetch port: every page of
 * the search is read, the search asks for the R84 tags, and an item bigger than a run may be is
 * never read whole (anyone can post one with the vault's tags).
 */
import { describe, expect, it } from 'vitest';
import { HISTORY_RUN_MAX_BYTES as RUN_MAX_BYTES } from '../protocol/vaultHistory';
import { gatewaySource } from './gatewaySource';
import { RestoreError } from './restoreReader';

interface FakeItem {
  id: string;
  size: number;
  body: () => Uint8Array;
  /** The block that holds it; unset: pending (no block). */
  height?: number;
}

function fakeGateway(items: FakeItem[], pageSize = 2) {
  const searches: unknown[] = [];
  const queries: string[] = [];
  let bytesServed = 0;
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    if (url.endsWith('/graphql')) {
      const { query, variables } = JSON.parse(String(init?.body)) as { query: string; variables: { tags: unknown; after: string | null } };
      searches.push(variables.tags);
      queries.push(query);
      const start = variables.after === null ? 0 : Number(variables.after) + 1;
      const page = items.slice(start, start + pageSize);
      return Response.json({
        data: {
          transactions: {
            pageInfo: { hasNextPage: start + pageSize < items.length },
            edges: page.map((item, i) => ({
              cursor: String(start + i),
              node: { id: item.id, owner: { address: 'relay' }, tags: [{ name: 'Seq-From', value: '1' }, { name: 'Seq-To', value: '1' }], data: { size: String(item.size) }, block: item.height === undefined ? null : { height: item.height } },
            })),
          },
        },
      });
    }
    const item = items.find((candidate) => url.endsWith(`/${candidate.id}`));
    if (!item) return new Response('not found', { status: 404 });
    const bytes = item.body();
    // Served in 64 KiB pieces, counted as they are pulled.
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        const piece = bytes.subarray(at, at + 65536);
        at += piece.length;
        bytesServed += piece.length;
        controller.enqueue(piece);
      },
    });
    return new Response(stream);
  }) as typeof fetch;
  return { fetchImpl, searches, queries, served: () => bytesServed };
}

describe('[R86] reading a gateway', () => {
  it('[R98] asks for the items oldest first and carries each one\'s block height; a pending one has none', async () => {
    const items = [
      { id: 'a', size: 2, height: 7, body: () => new TextEncoder().encode('aa') },
      { id: 'b', size: 2, body: () => new TextEncoder().encode('bb') },
    ];
    const gateway = fakeGateway(items);
    const heights: (number | null)[] = [];
    for await (const item of gatewaySource('http://gw.test', gateway.fetchImpl).historyItems('v1')) heights.push(item.height);
    expect(heights).toEqual([7, null]);
    expect(gateway.queries[0]).toMatch(/transactions\(tags: \$tags, first: \$first, after: \$after, sort: HEIGHT_ASC\)/);
    expect(gateway.queries[0]).toContain('block { height }');
  });

  it('reads every page of the search for the vault-history tags', async () => {
    const items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, size: 2, body: () => new TextEncoder().encode(id + id) }));
    const gateway = fakeGateway(items);
    const read: string[] = [];
    for await (const item of gatewaySource('http://gw.test/', gateway.fetchImpl).historyItems('v1')) read.push(new TextDecoder().decode(await item.read()));
    expect(read).toEqual(['aa', 'bb', 'cc', 'dd', 'ee']);
    expect(gateway.searches).toHaveLength(3);
    expect(gateway.searches[0]).toEqual([
      { name: 'App-Name', values: ['Cairn'] },
      { name: 'Cairn-Item', values: ['vault-history'] },
      { name: 'Vault-Id', values: ['v1'] },
    ]);
  });

  it('an item bigger than a run may be is not downloaded: listed so, or found so while reading', async () => {
    const huge = new Uint8Array(RUN_MAX_BYTES * 4);
    const gateway = fakeGateway([
      { id: 'listed-huge', size: huge.length, body: () => huge },
      { id: 'lies-about-size', size: 10, body: () => huge },
    ]);
    const sizes: number[] = [];
    for await (const item of gatewaySource('http://gw.test', gateway.fetchImpl).historyItems('v1')) sizes.push((await item.read()).length);
    expect(sizes).toEqual([0, 0]);
    expect(gateway.served()).toBeLessThanOrEqual(RUN_MAX_BYTES + 2 * 65536);
  });

  it('a gateway that cannot be reached, or answers an error: UNREACHABLE', async () => {
    const down = gatewaySource('http://gw.test', (async () => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    }) as typeof fetch);
    const error = await (async () => {
      for await (const _ of down.historyItems('v1')) return null;
      return null;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RestoreError);
    expect((error as RestoreError).message).toBe('Could not reach the gateway http://gw.test: connect ECONNREFUSED 127.0.0.1:1.');
    const failing = gatewaySource('http://gw.test', (async () => new Response('busy', { status: 502 })) as typeof fetch);
    await expect((async () => { for await (const _ of failing.historyItems('v1')) return; })()).rejects.toThrow('the gateway http://gw.test answered 502 to a search of its items.');
  });
});
