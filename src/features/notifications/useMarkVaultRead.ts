import { useEffect } from 'react';
import { VAULT_READ_DELAY_MS } from '../../domain/notificationRules';
import { useUnreadNotifications } from '../../storage/notificationStore';
import { notificationActions } from '../../sync/notificationSync';

/**
 * Spec 000 sections 4 and 9: a vault that stays open about 3 s marks its notifications read
 * (PATCH /notifications?vaultId=, queued like any notification action when offline). One that
 * arrives while the vault is open is marked read 3 s later too.
 */
export function useMarkVaultRead(vaultId: string): void {
  const hasUnread = useUnreadNotifications().vaultIds.has(vaultId);
  useEffect(() => {
    if (!vaultId || !hasUnread) return;
    const timer = setTimeout(() => void notificationActions().act({ kind: 'readVault', vaultId }), VAULT_READ_DELAY_MS);
    return () => clearTimeout(timer);
  }, [vaultId, hasUnread]);
}
