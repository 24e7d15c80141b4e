/**
 * The NFT pages as a visitor reads them, rendered to static markup with the real components, the
 * theme and a memory router: a detail page's sections and licence, Share for members only, a
 * collection's marketplace link, and names that stay text (never HTML).
 */
import { MantineProvider } from '@mantine/core';
import { createMemoryHistory, createRootRoute, createRouter, RouterContextProvider } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { nftsOfVault, type NftLogEntry } from '../../domain/nftsOfVault';
import { DEFAULT_UDL, MARKETPLACE_COLLECTION_URL, type NftChainState } from '../../protocol/nfts';
import { OperationBody, type FileVersion } from '../../protocol/vaults';
import { NftCollectionView } from './NftCollectionView';
import { NftDetailView } from './NftDetailView';
import { NftListView, NO_NFTS_TITLE } from './NftListView';
import type { NftView } from './nftView';

const OWNER = 'o'.repeat(43);
const DATA_ITEM = 'd'.repeat(43);
const TX = 't'.repeat(43);

function version(id: string, mime: string): FileVersion {
  return { versionId: `v-${id}`, blobId: `b-${id}`, size: 10, storedSize: 10, chunkSize: 4_194_304, chunkCount: 1, chunkHashes: ['0'.repeat(64)], mimeType: { clear: mime }, lastModified: 1 };
}

function entry(seq: number, objectId: string, body: unknown): NftLogEntry {
  return { seq, time: seq, op: { id: `op-${seq}`, vaultId: 'vault', objectId, author: 'a'.repeat(64), createdAt: 1, body: OperationBody.parse(body), signature: 'x'.repeat(86) } };
}

const meta = (name: string) => ({ name, description: 'A <i>description</i>', topics: ['art'], types: ['document'], owner: OWNER, creator: OWNER });

const LOG = [
  entry(1, 'n1', { type: 'nft.mint', collectionId: null, metadata: { ...meta('<b>Bold</b> sunset'), fractionParts: 100 }, udl: DEFAULT_UDL, ucm: false, version: version('n1', 'application/pdf') }),
  entry(2, 'n2', { type: 'nft.mint', collectionId: 'c1', metadata: { ...meta('In a set'), fractionParts: null }, udl: null, ucm: true, version: version('n2', 'application/pdf') }),
  entry(3, 'c1', { type: 'nft.collection', metadata: meta('Set'), udl: null, ucm: true, nftIds: ['n2'], thumbnail: null, banner: null }),
];

function view(scope: NftView['scope'], chain: NftChainState[] = [], log = LOG): NftView {
  return {
    scope,
    status: 'active',
    vaultId: 'vault',
    isAvailable: true,
    nfts: nftsOfVault(log),
    chain: new Map(chain.map((state) => [state.objectId, state])),
    download: () => Promise.reject(new Error('not in this test')),
  };
}

function render(node: ReactNode): string {
  const router = createRouter({ routeTree: createRootRoute(), history: createMemoryHistory({ initialEntries: ['/'] }) });
  return renderToStaticMarkup(
    <MantineProvider>
      <RouterContextProvider router={router}>{node}</RouterContextProvider>
    </MantineProvider>,
  );
}

/** The markup's text, tags dropped: what a reader sees. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/\s+/g, ' ');

describe('NFT detail', () => {
  it('[R140] shows On-chain data (data item id, bundle, owner, fractional balance, status) and the default licence', () => {
    const html = render(<NftDetailView view={view('member', [{ objectId: 'n1', kind: 'nft', dataItemId: DATA_ITEM, txId: TX, status: 'REGISTERED' }])} nftId="n1" />);
    const text = textOf(html);
    expect(text).toContain('On-chain data');
    expect(text).toContain(`NFT id ${DATA_ITEM}`);
    expect(text).toContain(`Bundle transaction ${TX}`);
    expect(text).toContain(`${OWNER}: 100 fractional tokens`);
    expect(text).toContain('Status NFT successfully minted');
    expect(text).toContain('Universal Data License');
    expect(text).toContain('Access Free');
    expect(text).toContain('Derivations Not allowed');
    expect(text).toContain('Duration Infinite');
    expect(text).toContain('Payment address None');
    expect(html).toMatch(/<button[^>]*>.*Share/);
  });

  it('hides Share in the public view and says not on the network yet before the relay', () => {
    const text = textOf(render(<NftDetailView view={view('public')} nftId="n1" />));
    expect(text).not.toContain('Share');
    expect(text).toContain('NFT id Not on the network yet');
  });

  it('renders names and descriptions as text, never HTML', () => {
    const html = render(<NftDetailView view={view('public')} nftId="n1" />);
    expect(html).not.toContain('<b>Bold</b>');
    expect(html).toContain('&lt;b&gt;Bold&lt;/b&gt; sunset');
    expect(html).not.toContain('<i>description</i>');
  });

  it('says None for a removed licence, inside its collection', () => {
    const text = textOf(render(<NftDetailView view={view('public')} nftId="n2" collectionId="c1" />));
    expect(text).toMatch(/Universal Data License None/);
    expect(render(<NftDetailView view={view('public')} nftId="n2" collectionId="other" />)).toContain('This Atomic NFT is not in this vault.');
  });
});

describe('NFT list and collection', () => {
  it('[R141] lists the single NFT and the collection, not the collection NFT; links to their pages', () => {
    const html = render(<NftListView view={view('public')} />);
    expect(html).toContain('href="/public/vaults/active/vault/nfts/n1"');
    expect(html).toContain('href="/public/vaults/active/vault/nfts/collection/c1"');
    expect(html).not.toContain('/nfts/n2');
    expect(textOf(html)).toContain('Not on the network yet');
  });

  it('shows the atomic NFT empty state', () => {
    expect(render(<NftListView view={view('member', [], [])} />)).toContain(NO_NFTS_TITLE);
  });

  it('links a listed collection to the marketplace once its data item id is known, with a labelled back arrow', () => {
    const before = render(<NftCollectionView view={view('member')} collectionId="c1" />);
    expect(before).not.toContain('View on the marketplace');
    expect(before).toContain('aria-label="Back to the Atomic NFTs"');
    expect(before).toContain('href="/vaults/active/vault/nfts"');
    expect(before).toContain('href="/vaults/active/vault/nfts/collection/c1/n2"');
    const after = render(<NftCollectionView view={view('member', [{ objectId: 'c1', kind: 'collection', dataItemId: DATA_ITEM, txId: TX, status: 'PENDING' }])} collectionId="c1" />);
    expect(after).toContain(`href="${MARKETPLACE_COLLECTION_URL}${DATA_ITEM}"`);
    expect(textOf(after)).toContain('View on the marketplace');
  });
});
