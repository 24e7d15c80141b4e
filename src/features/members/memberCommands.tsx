/** Member actions with their confirmations and snackbars (spec 001 sections 4 and 8). */
import { Stack, Text } from '@mantine/core';
import { ApiError } from '../../protocol/errors';
import { leaveVault, OfflineError, revokeMember } from '../../sync/memberActions';
import { confirmAction } from '../../ui/confirmAction';
import { showErrorSnackbar, showSnackbar } from '../../ui/snackbar';
import { actionErrorText } from '../vaults/vaultErrors';

/**
 * A member action's failure text: offline says so (they are online only); the hourly limit of
 * invitation e-mails says which limit and to try later (the server's message); else spec 000
 * section 8's.
 */
export function memberErrorText(error: unknown, doing?: string): string {
  if (error instanceof OfflineError) return error.message;
  if (isRateLimited(error)) return error.message;
  return actionErrorText(doing);
}

/** A 429: the request was refused as too many, not failed; retrying later works. */
export function isRateLimited(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 'RATE_LIMITED';
}

/** Runs a member action, reporting its failure as a snackbar; resolves to whether it succeeded. */
export async function runMemberAction(action: () => Promise<unknown>, doing?: string): Promise<boolean> {
  try {
    await action();
    return true;
  } catch (error) {
    console.warn(`Member action failed (${doing ?? 'unknown'})`, error);
    showErrorSnackbar(memberErrorText(error, doing));
    return false;
  }
}

/**
 * The revoke confirmation. Revoking rotates the vault key so nothing added later reaches the
 * member, but no key change can take back what they already read or downloaded: the text says so.
 */
export function confirmRevokeMember(vaultId: string, membershipId: string, name: string, isInvite: boolean, onDone?: () => void) {
  confirmAction({
    title: isInvite ? 'Revoke invite' : 'Revoke access',
    message: (
      <Stack gap="xs">
        <Text size="sm">
          {isInvite ? 'Revoke the invitation of ' : 'Revoke the access of '}
          <Text span fw={600} inherit style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Text>
          ? They will no longer be able to open this vault, and nothing added to it from now on will be readable to them.
        </Text>
        {!isInvite && (
          <Text size="sm">
            What they already had stays readable to them: files and text they opened or downloaded before, and whatever is
            still stored on their devices.
          </Text>
        )}
      </Stack>
    ),
    confirmLabel: 'Revoke',
    isDanger: true,
    onConfirm: () =>
      void runMemberAction(async () => {
        await revokeMember(vaultId, membershipId);
        showSnackbar(isInvite ? 'Invite revoked.' : 'Access revoked.');
        onDone?.();
      }, 'revoking an access'),
  });
}

/** The leave confirmation; leaving ends the membership, and going back needs a new invitation. */
export function confirmLeaveVault(vaultId: string, vaultName: string, onLeft: () => void) {
  confirmAction({
    title: 'Leave vault',
    message: (
      <Text size="sm">
        Leave{' '}
        <Text span fw={600} inherit style={{ overflowWrap: 'anywhere' }}>
          {vaultName}
        </Text>
        ? It disappears from your vaults, and an owner has to invite you again for you to come back.
      </Text>
    ),
    confirmLabel: 'Leave vault',
    isDanger: true,
    onConfirm: () =>
      void runMemberAction(async () => {
        await leaveVault(vaultId);
        showSnackbar(`You left ${vaultName}.`);
        onLeft();
      }, 'leaving the vault'),
  });
}
