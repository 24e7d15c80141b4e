import { Center, Pagination, SimpleGrid } from '@mantine/core';
import { useState } from 'react';
import { nftPage, nftPageCount, type NftListItem } from '../../domain/nftsOfVault';
import type { NftChainState } from '../../protocol/nfts';
import type { FileVersion } from '../../protocol/vaults';
import { NftCard } from './NftCard';

interface NftGridProps {
  items: readonly NftListItem[];
  hrefOf: (item: NftListItem) => string;
  chain: ReadonlyMap<string, NftChainState>;
  vaultId: string;
  download: (version: FileVersion) => Promise<Blob>;
  /** Names the list for screen readers ('Atomic NFTs', the collection's name). */
  label: string;
}

/** NFT cards 40 a page (spec 002 section 9), one column at 375 px, more as the screen widens. */
export function NftGrid({ items, hrefOf, chain, vaultId, download, label }: NftGridProps) {
  const [page, setPage] = useState(1);
  const pages = nftPageCount(items.length);
  const current = Math.min(page, pages);
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3, lg: 4 }} spacing="md" component="ul" aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {nftPage(items, current).map((item) => (
          <li key={item.id}>
            <NftCard item={item} href={hrefOf(item)} state={chain.get(item.id)} vaultId={vaultId} download={download} />
          </li>
        ))}
      </SimpleGrid>
      {pages > 1 && (
        <Center>
          <Pagination total={pages} value={current} onChange={setPage} aria-label={`${label} pages`} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
        </Center>
      )}
    </>
  );
}
