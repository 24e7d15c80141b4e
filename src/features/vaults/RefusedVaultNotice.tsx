import { ActionIcon, Anchor, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { VaultRecord } from '../../storage/vaultRecords';
import { dismissRejection } from '../../sync/vaultActions';
import { IconX } from '../../ui/icons';
import { runWithErrorSnackbar } from '../../ui/snackbar';
import { PRICING_PLANS_PATH } from '../billing/UpgradeTierModal';

/** Whether the server refused to create this vault (a creation queued offline, pushed later: R9, R101). */
export function isRefusedVault(vault: VaultRecord): boolean {
  return vault.rejection?.type === 'vault.create';
}

/**
 * Under a refused vault's name in the vault list: the server's reason, Upgrade when it was the
 * plan's vault limit (SYNC_SPEC R101) or a plan without vaults (R122), and Dismiss, which lets the vault go (nothing was created).
 */
export function RefusedVaultNotice({ vault }: { vault: VaultRecord }) {
  const rejection = vault.rejection;
  if (!rejection) return null;
  return (
    <Group gap={6} role="alert" mt={2} onClick={(e) => e.stopPropagation()}>
      <Text size="xs" c="red">
        {rejection.message}
      </Text>
      {(rejection.code === 'VAULT_LIMIT' || rejection.code === 'FEATURE_NOT_IN_PLAN') && (
        <Anchor size="xs" renderRoot={(props) => <Link to={PRICING_PLANS_PATH} {...props} />}>
          Upgrade
        </Anchor>
      )}
      <ActionIcon size="xs" variant="subtle" color="red" aria-label="Dismiss" onClick={() => void runWithErrorSnackbar(() => dismissRejection(rejection.opId), 'There was an error.')}>
        <IconX size={12} />
      </ActionIcon>
    </Group>
  );
}
