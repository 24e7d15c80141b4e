/** Vault list and vault creation (spec 000 section 2, spec 002 "Vault creation"). */
import { createRoute, notFound, redirect } from '@tanstack/react-router';
import { VaultListPage } from '../features/vaults/VaultListPage';
import { VaultSetupPage } from '../features/vaults/VaultSetupPage';
import { appRoute } from './appRoute';

export const VAULT_LIST_STATUSES = ['active', 'inactive'] as const;
export type VaultListStatus = (typeof VAULT_LIST_STATUSES)[number];

function isVaultListStatus(value: string): value is VaultListStatus {
  return (VAULT_LIST_STATUSES as readonly string[]).includes(value);
}

export const vaultsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'vaults',
  beforeLoad: () => {
    throw redirect({ to: '/vaults/$status', params: { status: 'active' }, replace: true });
  },
});

/** /vaults/active and /vaults/inactive; any other status is a 404. */
export const vaultListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'vaults/$status',
  beforeLoad: ({ params }) => {
    if (!isVaultListStatus(params.status)) throw notFound();
  },
  component: VaultListPage,
});

export const vaultSetupRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'create-vault/setup',
  component: VaultSetupPage,
});
