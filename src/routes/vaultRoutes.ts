/** Vault list and vault creation (spec 000 section 2, spec 002 "Vault creation"). */
import { createRoute, notFound, redirect } from '@tanstack/react-router';
import { searchString } from '../app/plainSearch';
import { VaultListPage } from '../features/vaults/VaultListPage';
import { VaultMetadataPage } from '../features/vaults/VaultMetadataPage';
import { RestoreVaultPage } from '../features/vaults/RestoreVaultPage';
import { VaultPrivacyPage } from '../features/vaults/VaultPrivacyPage';
import { VaultSetupPage } from '../features/vaults/VaultSetupPage';
import { VaultStoragePage } from '../features/vaults/VaultStoragePage';
import { parseWizardChoices, type WizardChoices } from '../domain/vaultWizardRules';
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
  /** `refresh` reloads the list, then the page removes it (spec 000 section 2, routing rules). */
  validateSearch: (search: Record<string, unknown>): { refresh?: string } => ({ refresh: searchString(search, 'refresh') }),
  component: VaultListPage,
});

export const vaultSetupRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'create-vault/setup',
  component: VaultSetupPage,
});

/** The wizard's choices travel in the search params, so Back, reloads and arrow keys keep them. */
const validateWizardSearch = (search: Record<string, unknown>): WizardChoices => parseWizardChoices(search);

export const vaultStorageStepRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'create-vault/storage',
  validateSearch: validateWizardSearch,
  component: VaultStoragePage,
});

export const vaultPrivacyStepRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'create-vault/privacy',
  validateSearch: validateWizardSearch,
  component: VaultPrivacyPage,
});

export const vaultMetadataStepRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'create-vault',
  validateSearch: validateWizardSearch,
  component: VaultMetadataPage,
});

/** 'Restore a vault from the network' (issue 19, SYNC_SPEC R96). */
export const restoreVaultRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'restore-vault',
  component: RestoreVaultPage,
});
