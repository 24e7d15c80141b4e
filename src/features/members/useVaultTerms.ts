import { useEffect, useState } from 'react';
import type { TermsState } from '../../domain/memberRules';
import { useVault } from '../../storage/vaultStore';
import { pokeVault } from '../../sync';

/**
 * How long the invite page waits for the vault's operations before it takes the terms as
 * unreadable (spec 001 section 4: then the invite is accepted automatically). Pulling a new
 * vault's first page takes well under a second on a working connection.
 */
export const TERMS_WAIT_MS = 15_000;

/**
 * The vault's terms of access as this device has them: they live in the vault's operations, so
 * they are known once the vault is pulled up to the head the server announced.
 */
export function useVaultTerms(vaultId: string | undefined): TermsState {
  const vault = useVault(vaultId ?? '');
  const [hasTimedOut, setHasTimedOut] = useState(false);
  useEffect(() => {
    if (!vaultId) return;
    pokeVault(vaultId);
    const timer = setTimeout(() => setHasTimedOut(true), TERMS_WAIT_MS);
    return () => clearTimeout(timer);
  }, [vaultId]);
  if (vault && vault.headSeq > 0 && vault.cursor >= vault.headSeq) return { kind: 'text', text: vault.terms };
  return hasTimedOut ? { kind: 'unreadable' } : { kind: 'loading' };
}
