import { useCallback, useMemo } from 'react';
import { clearMime } from '../../domain/nftsOfVault';
import { getApiClient } from '../../platform/apiClient';
import { NftChainStates } from '../../protocol/nfts';
import type { FileVersion } from '../../protocol/vaults';
import { downloadOpVersion } from '../../sync/vaultActions';
import { useVaultRoom } from '../files/VaultRoomContext';
import { useMemberVaultNfts, useNftChainStates } from './nftSource';
import { nftObjectIds, type NftView } from './nftView';

/** A member's NftView of the room's vault: its cached verified log, GET /api/vaults/{id}/nfts/chain. */
export function useMemberNftView(): NftView {
  const { vault, status } = useVaultRoom();
  const vaultId = vault.vaultId;
  const nfts = useMemberVaultNfts(vaultId);
  const ids = useMemo(() => nftObjectIds(nfts), [nfts]);
  const fetchStates = useCallback(async () => (await getApiClient().get(`/vaults/${encodeURIComponent(vaultId)}/nfts/chain`, NftChainStates)).items, [vaultId]);
  const chain = useNftChainStates(vaultId, fetchStates, ids);
  const download = useCallback((version: FileVersion) => downloadOpVersion(vaultId, { ...version, mimeTypeText: clearMime(version) }), [vaultId]);
  return { scope: 'member', status, vaultId, isAvailable: vault.isPublic && !vault.isCloud, nfts, chain, download };
}
