import { createContext, useContext } from 'react';
import type { VaultRecord } from '../../storage/vaultRecords';

export interface VaultRoom {
  vault: VaultRecord;
  /** The list status in the path (active or inactive), kept in every link inside the room. */
  status: string;
  /** Create folders. */
  canAdd: boolean;
  /** Upload files, folders, a zip, new versions: canAdd, unless an airdrop link allows no storage. */
  canUpload: boolean;
  canEdit: boolean;
}

export const VaultRoomContext = createContext<VaultRoom | null>(null);

/** The vault of the room being shown; only under VaultRoomLayout. */
export function useVaultRoom(): VaultRoom {
  const room = useContext(VaultRoomContext);
  if (!room) throw new Error('useVaultRoom() outside a vault room');
  return room;
}
