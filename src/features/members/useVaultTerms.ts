import { useEffect, useState } from 'react';
import type { TermsState } from '../../domain/memberRules';
import { useStoreAccount, useVault } from '../../storage/vaultStore';
import { pokeVault } from '../../sync';

/**
 * After this long without the vault's operations the invite page says it is still loading and to
 * check the connection. Pulling a new vault's first page takes well under a second online.
 */
export const TERMS_SLOW_MS = 10_000;

/**
 * The vault's terms of access as this device has them: they live in the vault's operations, so
 * they are known once the vault is pulled up to the head the server announced. Terms that do not
 * open (a sealed field this device cannot read) are kept as '' by the projection: unreadable, which
 * the spec answers with automatic acceptance. A slow pull is never taken as unreadable: the
 * invitee would accept terms they were never shown.
 */
export function useVaultTerms(vaultId: string | undefined): TermsState & { isSlow: boolean } {
  const vault = useVault(vaultId ?? '');
  const [isSlow, setIsSlow] = useState(false);
  const accountId = useStoreAccount();
  useEffect(() => {
    if (!vaultId || !accountId) return;
    pokeVault(vaultId);
    const timer = setTimeout(() => setIsSlow(true), TERMS_SLOW_MS);
    return () => clearTimeout(timer);
  }, [vaultId, accountId]);
  if (vault && vault.headSeq > 0 && vault.cursor >= vault.headSeq) return { kind: 'text', text: vault.terms, isSlow: false };
  return { kind: 'loading', isSlow };
}
