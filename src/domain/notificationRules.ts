/**
 * What a notification says and where clicking it goes (spec 000 sections 2 and 3: a membership
 * notification opens the invite or confirm page depending on its event). Pure.
 */
import type { NotificationEvent } from '../protocol/members';

export interface NotificationView {
  text: string;
  /** Where a click goes: the invite page, a vault's member list, or the vault list. */
  target: { to: 'invite'; membershipId: string } | { to: 'manageAccess'; vaultId: string } | { to: 'vault'; vaultId: string } | { to: 'vaults' };
}

export interface NotificationInput {
  event: NotificationEvent;
  objectId: string;
  vaultId: string | null;
  fromEmail: string | null;
}

/** `vaultName` is the vault's name when this device knows it (an invitee's is sealed until they join). */
export function describeNotification({ event, objectId, vaultId, fromEmail }: NotificationInput, vaultName: string | undefined): NotificationView {
  const who = fromEmail ?? 'Someone';
  const vault = vaultName ? `"${vaultName}"` : 'a vault';
  const ownVault = vaultName ? `"${vaultName}"` : 'your vault';
  const toVault = vaultId ? ({ to: 'vault', vaultId } as const) : ({ to: 'vaults' } as const);
  const toMembers = vaultId ? ({ to: 'manageAccess', vaultId } as const) : ({ to: 'vaults' } as const);
  switch (event) {
    case 'MEMBERSHIP_INVITE':
      return { text: `${who} invited you to ${vault}.`, target: { to: 'invite', membershipId: objectId } };
    case 'MEMBERSHIP_INVITE_RESEND':
      return { text: `${who} reminded you of their invitation to ${vault}.`, target: { to: 'invite', membershipId: objectId } };
    case 'MEMBERSHIP_ACCEPT':
      return { text: `${who} accepted your invitation to ${ownVault}.`, target: toMembers };
    case 'MEMBERSHIP_REJECT':
      return { text: `${who} rejected your invitation to ${ownVault}.`, target: toMembers };
    case 'MEMBERSHIP_REVOKE':
      return { text: `${who} revoked your access to ${vault}.`, target: { to: 'vaults' } };
    case 'MEMBERSHIP_CHANGE_ACCESS':
      return { text: `${who} changed your role in ${vault}.`, target: toVault };
  }
}

/** Spec 000 section 9: the notifications page shows 10 at first, and Load more adds 10. */
export const NOTIFICATIONS_PAGE_SIZE = 10;
