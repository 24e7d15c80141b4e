import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from '@tanstack/react-router';

/** The vault room's areas, each a path under the vault (spec 000 section 2, route table). */
const TABS = [
  { value: 'assets', label: 'Files' },
  { value: 'timeline', label: 'Timeline' },
] as const;

/**
 * Tabs between the vault room's areas. Shown on the areas themselves (not over a file viewer or
 * a member page); each tab is a route, so the browser's back and a reload keep the place.
 */
export function VaultRoomTabs({ status, vaultId }: { status: string; vaultId: string }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const base = `/vaults/${status}/${vaultId}/`;
  const area = pathname.startsWith(base) ? pathname.slice(base.length).split('/')[0] : '';
  if (!TABS.some((t) => t.value === area)) return null;
  return (
    <Tabs value={area} onChange={(value) => value && void navigate({ to: `/vaults/$status/$vaultId/${value}` as '/vaults/$status/$vaultId/assets', params: { status, vaultId } })} mb="sm">
      <Tabs.List>
        {TABS.map((tab) => (
          <Tabs.Tab key={tab.value} value={tab.value}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
