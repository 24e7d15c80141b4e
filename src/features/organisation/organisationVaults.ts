/**
 * The vault side of organisations, done on this device (R128-R130): an admin airdropped into
 * every vault of the inviter, the admins airdropped into a vault an organisation person creates,
 * a revoked person taken out of the vaults this device owns. Each is the signed member.* operation
 * 'Invite to vault' and 'Revoke access' push (src/sync/memberActions.ts), vault after vault, so
 * one vault's failure is reported for that vault and the others still go.
 */
import { ApiError } from '../../protocol/errors';
import { NetworkError } from '../../platform/apiClient';
import { requireSync } from '../../sync/currentSync';
import { fetchMembers } from '../../sync/memberList';
import { inviteMembers, MemberLimitError, revokeMember } from '../../sync/memberActions';
import { whileOnline } from '../../sync/members';
import type { OrganisationMember } from '../../protocol/organisations';
import { memberErrorText } from '../members/memberCommands';
import { notifications } from '@mantine/notifications';
import { showSnackbar } from '../../ui/snackbar';
import { fetchMyOrganisation, fetchOrganisationMembers, organisationErrorText } from './organisationApi';
import { adminsToAirdrop, membershipToRevoke, needsAirdrop, ownedActiveVaults } from './organisationRules';

export interface VaultFailure {
  vaultId: string;
  vaultName: string;
  message: string;
}

export interface VaultRunResult {
  /** Vaults the operation went through in. */
  done: number;
  failures: VaultFailure[];
}

export type Progress = (done: number, total: number) => void;

type Person = Pick<OrganisationMember, 'userId' | 'email' | 'address'>;

async function myOwnedVaults() {
  const { ctx } = requireSync();
  const vaults = await ctx.db.vaults.where('accountId').equals(ctx.accountId).toArray();
  return { ctx, vaults: ownedActiveVaults(vaults.filter((v) => !v.isPending)) };
}

async function inviteAsOwner(vaultId: string, email: string): Promise<string | null> {
  const [result] = await inviteMembers(vaultId, [{ email, role: 'OWNER' }]);
  if (!result) return 'Not sent.';
  return result.status === 'invited' ? null : result.message;
}

/**
 * R128: after `person` was invited as an organisation admin, invites them as OWNER into every
 * ACTIVE vault this device is an ACCEPTED OWNER of where they hold no live membership.
 */
export async function airdropIntoMyVaults(person: Person, onProgress: Progress = () => {}): Promise<VaultRunResult> {
  return whileOnline(async () => {
    const { ctx, vaults } = await myOwnedVaults();
    const planned = [];
    for (const vault of vaults) {
      const members = await fetchMembers(ctx, vault.vaultId);
      if (needsAirdrop(members, person.userId)) planned.push(vault);
    }
    return runPerVault(planned, onProgress, (vaultId) => inviteAsOwner(vaultId, person.email));
  });
}

/**
 * R129: after this device created `vaultId`, invites every other admin of its organisation as
 * OWNER (their devices accept by themselves, R131).
 */
export async function airdropAdminsIntoVault(vaultId: string, admins: Person[]): Promise<VaultRunResult & { failedEmails: string[] }> {
  const failedEmails: string[] = [];
  let done = 0;
  for (const admin of admins) {
    try {
      const error = await inviteAsOwner(vaultId, admin.email);
      if (error) failedEmails.push(`${admin.email}: ${error}`);
      else done += 1;
    } catch (error) {
      failedEmails.push(`${admin.email}: ${failureText(error)}`);
    }
  }
  return { done, failures: [], failedEmails };
}

/**
 * R130: takes `person` out of every ACTIVE vault this device is an ACCEPTED OWNER of, unless the
 * vault is theirs; a private vault's key is rotated (revokeMember).
 */
export async function revokeFromMyVaults(person: Person, onProgress: Progress = () => {}): Promise<VaultRunResult> {
  return whileOnline(async () => {
    const { ctx, vaults } = await myOwnedVaults();
    const planned: { vault: (typeof vaults)[number]; membershipId: string }[] = [];
    for (const vault of vaults) {
      const membershipId = membershipToRevoke(vault, await fetchMembers(ctx, vault.vaultId), person);
      if (membershipId) planned.push({ vault, membershipId });
    }
    const byVault = new Map(planned.map((p) => [p.vault.vaultId, p.membershipId]));
    return runPerVault(
      planned.map((p) => p.vault),
      onProgress,
      async (vaultId) => {
        await revokeMember(vaultId, byVault.get(vaultId)!);
        return null;
      },
    );
  });
}

/** The server's own words for a refusal (e.g. STALE_VAULT_KEY), else the member actions' text. */
function failureText(error: unknown): string {
  if (error instanceof MemberLimitError) return "The vault's plan has reached its member limit.";
  return error instanceof ApiError ? error.message : memberErrorText(error);
}

async function runPerVault(
  vaults: { vaultId: string; name: string }[],
  onProgress: Progress,
  act: (vaultId: string) => Promise<string | null>,
): Promise<VaultRunResult> {
  const failures: VaultFailure[] = [];
  let done = 0;
  onProgress(0, vaults.length);
  for (const [index, vault] of vaults.entries()) {
    try {
      const error = await act(vault.vaultId);
      if (error) failures.push({ vaultId: vault.vaultId, vaultName: vault.name, message: error });
      else done += 1;
    } catch (error) {
      failures.push({ vaultId: vault.vaultId, vaultName: vault.name, message: failureText(error) });
    }
    onProgress(index + 1, vaults.length);
  }
  return { done, failures };
}

/**
 * R129, after the vault creation screen heard the server accept `vaultId`: when the creator
 * belongs to an organisation, its other admins are invited as OWNER. Runs in the background; the
 * outcome is told in a snackbar (failures name who was not added, so they can be invited by hand).
 */
export async function shareNewVaultWithAdmins(vaultId: string, myUserId: string): Promise<void> {
  let admins: OrganisationMember[];
  try {
    let organisation;
    try {
      ({ organisation } = await fetchMyOrganisation());
    } catch (error) {
      // A session the organisation routes refuse (an airdrop member's) belongs to no organisation.
      if (error instanceof ApiError && error.code === 'FORBIDDEN') return;
      throw error;
    }
    if (!organisation) return;
    admins = adminsToAirdrop((await fetchOrganisationMembers(organisation.id)).admins, myUserId);
  } catch (error) {
    // Offline: the queue (src/sync/adminShares.ts) tries again in a later sync cycle.
    if (error instanceof NetworkError) throw error;
    notifications.show({
      color: 'red',
      title: "Your organisation's admins were not added to the new vault",
      message: `${organisationErrorText(error)} Invite them from the vault.`,
      autoClose: false,
    });
    return;
  }
  if (!admins.length) return;
  const { done, failedEmails } = await airdropAdminsIntoVault(vaultId, admins);
  if (failedEmails.length) {
    // Stays until closed: who was not added must not vanish after 3 s.
    notifications.show({ color: 'red', title: 'Not added to the new vault', message: `Invite them from the vault: ${failedEmails.join('; ')}`, autoClose: false });
  } else if (done) {
    showSnackbar(done === 1 ? 'Your organisation admin was added to the vault.' : `Your ${done} organisation admins were added to the vault.`);
  }
}
