import { createContext, useContext } from 'react';
import type { PublicVault } from '../../public/publicProjection';

/** The loaded public vault, provided by PublicVaultLayout to its Files and Gallery pages. */
export const PublicVaultContext = createContext<PublicVault | null>(null);

export function usePublicVault(): PublicVault {
  const vault = useContext(PublicVaultContext);
  if (!vault) throw new Error('usePublicVault outside PublicVaultLayout');
  return vault;
}
