import { useMemo } from 'react';
import type { VaultRecord } from '../../storage/vaultRecords';
import { useVaults } from '../../storage/vaultStore';
import { useBranding } from './brandingStore';

/**
 * The vaults the lists show: all of them, or on an organisation's subdomain only cloud vaults
 * (spec 000 section 1: in white-label mode 'only vaults flagged cloud are shown'; R135).
 */
export function useShownVaults(status: 'active' | 'inactive'): VaultRecord[] | undefined {
  const vaults = useVaults(status);
  const isBranded = useBranding() !== null;
  return useMemo(() => (isBranded && vaults ? vaults.filter((vault) => vault.isCloud) : vaults), [isBranded, vaults]);
}
