/**
 * One shape for what the NFT pages show, whoever looks: a member (memberNftView.ts: the vault's
 * cached verified log, the members' routes) or a signed-out visitor (publicNftView.ts: the public
 * viewer's pulled log, the public routes). The pages take a NftView and never ask where it came
 * from; the two sources live apart so the signed-in app never loads the public viewer's code.
 */
import type { VaultNfts } from '../../domain/nftsOfVault';
import type { NftChainState } from '../../protocol/nfts';
import type { FileVersion } from '../../protocol/vaults';
import type { NftScope } from './nftPaths';

export interface NftView {
  scope: NftScope;
  /** The list status in the path, kept in every link. */
  status: string;
  vaultId: string;
  /** Public permanent vaults only have NFTs (spec 002 section 6). */
  isAvailable: boolean;
  /** Undefined while the first read is in flight. */
  nfts: VaultNfts | undefined;
  chain: ReadonlyMap<string, NftChainState>;
  /** A version's bytes, every chunk checked against its signed hash. */
  download: (version: FileVersion) => Promise<Blob>;
}

/** Every NFT and collection id of the vault: the chain states a page waits for. */
export function nftObjectIds(nfts: VaultNfts | undefined): string[] {
  return nfts ? [...nfts.nfts.keys(), ...nfts.collections.keys()] : [];
}
