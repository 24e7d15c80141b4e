import { useParams } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { clearMime, nftsOfVault } from '../../domain/nftsOfVault';
import type { FileVersion } from '../../protocol/vaults';
import { defaultPublicFetch, downloadPublicVersion } from '../../public/publicProjection';
import { usePublicVault } from '../public/PublicVaultContext';
import { parseChainStates, useNftChainStates } from './nftSource';
import { nftObjectIds, type NftView } from './nftView';

/** A visitor's NftView of the public vault: its pulled log, GET /api/public/vaults/{id}/nfts/chain. */
export function usePublicNftView(): NftView {
  const vault = usePublicVault();
  const { status = 'active' } = useParams({ strict: false });
  const vaultId = vault.summary.vaultId;
  const nfts = useMemo(() => nftsOfVault(vault.nftLog), [vault]);
  const ids = useMemo(() => nftObjectIds(nfts), [nfts]);
  const fetchStates = useCallback(async () => parseChainStates(await defaultPublicFetch(`/vaults/${encodeURIComponent(vaultId)}/nfts/chain`)), [vaultId]);
  const chain = useNftChainStates(vaultId, fetchStates, ids);
  const download = useCallback((version: FileVersion) => downloadPublicVersion(vaultId, { ...version, mimeTypeText: clearMime(version) }), [vaultId]);
  return { scope: 'public', status, vaultId, isAvailable: !vault.summary.isCloud, nfts, chain, download };
}
