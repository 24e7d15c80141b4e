/**
 * 'Mint NFT' (spec 002 section 2): replaces the add and filter controls on the vault's NFT list.
 * Minting is for public permanent vaults, by those who may add to it (not a VIEWER, not in an
 * archived vault, not in read-only mode: canUpload of the room, from src/domain/vaultPermissions.ts).
 */
import { Button } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { VaultRoom } from '../../files/VaultRoomContext';

/** Whether the room's vault allows minting by this user. */
export function canMintIn(room: Pick<VaultRoom, 'vault' | 'canUpload'>): boolean {
  return room.canUpload && room.vault.isPublic && !room.vault.isCloud;
}

export function MintNftButton({ room }: { room: VaultRoom }) {
  const isAllowed = canMintIn(room);
  return (
    <Button
      component={Link}
      to={`/vaults/${room.status}/${room.vault.vaultId}/nfts/mint/choose-type`}
      disabled={!isAllowed}
      onClick={(event: React.MouseEvent) => {
        if (!isAllowed) event.preventDefault();
      }}
    >
      Mint NFT
    </Button>
  );
}
