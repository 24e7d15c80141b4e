/** .../nfts/mint/*: only for those who may mint in this vault; anyone else goes back to the vault. */
import { Navigate, Outlet } from '@tanstack/react-router';
import { useVaultRoom } from '../../files/VaultRoomContext';
import { canMintIn } from './MintNftButton';

export function MintWizardLayout() {
  const room = useVaultRoom();
  if (!canMintIn(room)) return <Navigate to={`/vaults/${room.status}/${room.vault.vaultId}/assets`} replace />;
  return <Outlet />;
}
