import { Tabs } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { memo } from 'react';
import type { VaultRecord } from '../../storage/vaultRecords';

/** The vault room's tabs (spec 000 section 2, route table); each tab is a route under the room. */
const TABS = [
  { value: 'assets', label: 'Files', isShown: () => true },
  // Chat is for private vaults only.
  { value: 'chat', label: 'Chat', isShown: (vault: VaultRecord) => !vault.isPublic },
  { value: 'timeline', label: 'Timeline', isShown: () => true },
  // Spec 002 section 6: public permanent vaults only.
  { value: 'nfts', label: 'Atomic NFTs', isShown: (vault: VaultRecord) => vault.isPublic && !vault.isCloud },
] as const;

export type VaultRoomTab = (typeof TABS)[number]['value'];

/** The tab a room path belongs to, or null for pages without tabs (viewer, gallery, members...). */
export function tabOfPath(pathname: string): VaultRoomTab | null {
  const match = /^\/vaults\/[^/]+\/[^/]+\/([^/]+)/.exec(pathname);
  const segment = match?.[1];
  return TABS.some((t) => t.value === segment) ? (segment as VaultRoomTab) : null;
}

interface VaultRoomTabsProps {
  vault: VaultRecord;
  status: string;
  current: VaultRoomTab;
}

/** Memoised: the room's layout renders again whenever its vault record is read again. */
export const VaultRoomTabs = memo(function VaultRoomTabs({ vault, status, current }: VaultRoomTabsProps) {
  const navigate = useNavigate();
  const shown = TABS.filter((tab) => tab.isShown(vault));
  if (shown.length < 2) return null;
  const open = (value: VaultRoomTab) => void navigate({ to: `/vaults/$status/$vaultId/${value}`, params: { status, vaultId: vault.vaultId } });
  return (
    <Tabs
      value={current}
      mb="sm"
      onChange={(value) => {
        if (value && value !== current) open(value as VaultRoomTab);
      }}
    >
      <Tabs.List>
        {shown.map((tab) => (
          // The current tab leads back to its first page (an NFT's detail to the NFT list, a folder to the vault's top).
          <Tabs.Tab key={tab.value} value={tab.value} onClick={tab.value === current ? () => open(tab.value) : undefined}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
});
