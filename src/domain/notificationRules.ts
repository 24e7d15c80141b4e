/**
 * What a notification says and where clicking it goes (spec 000 sections 2 and 3): a stack opens
 * the vault's assets (revoked files for a hide), a memo the vault's chat, a vault event the vault
 * list, a membership the invite or confirm page depending on its event, others the assets. The
 * server sends ids only (docs/SYNC_SPEC.md R30); the names come from this device's projection,
 * and a name it does not know is said generically ("a file"). Pure.
 */
import type { NotificationEvent } from '../protocol/members';

export interface NotificationView {
  text: string;
  /** Where a click goes. */
  target:
    | { to: 'invite'; membershipId: string }
    | { to: 'manageAccess'; vaultId: string }
    | { to: 'vault'; vaultId: string }
    | { to: 'revokedFiles'; vaultId: string }
    | { to: 'chat'; vaultId: string }
    | { to: 'storage' }
    | { to: 'vaults' };
}

export interface NotificationInput {
  event: NotificationEvent;
  objectId: string;
  vaultId: string | null;
  fromEmail: string | null;
  /** Events this notification stands for (a coalesced run); 1 when absent. */
  count?: number;
}

/** Names this device resolved: the author's profile name, the file's or folder's name. */
export interface NotificationNames {
  authorName?: string | undefined;
  objectName?: string | undefined;
}

/** Activity texts: `one` for a single event, `many` for a run of `n`. */
const ACTIVITY: Partial<Record<NotificationEvent, { one: (object: string) => string; many: (n: number) => string; kind: 'file' | 'folder' | 'vault' | 'memo' }>> = {
  STACK_CREATE: { one: (o) => `uploaded ${o}`, many: (n) => `uploaded ${n} files`, kind: 'file' },
  STACK_UPLOAD_REVISION: { one: (o) => `uploaded a new version of ${o}`, many: (n) => `uploaded ${n} new file versions`, kind: 'file' },
  STACK_MOVE: { one: (o) => `moved ${o}`, many: (n) => `moved ${n} files`, kind: 'file' },
  STACK_UPDATE: { one: (o) => `renamed ${o}`, many: (n) => `renamed ${n} files`, kind: 'file' },
  STACK_REVOKE: { one: (o) => `hid ${o}`, many: (n) => `hid ${n} files`, kind: 'file' },
  STACK_RESTORE: { one: (o) => `restored ${o}`, many: (n) => `restored ${n} files`, kind: 'file' },
  STACK_DELETE: { one: (o) => `deleted ${o}`, many: (n) => `deleted ${n} files`, kind: 'file' },
  FOLDER_CREATE: { one: (o) => `created ${o}`, many: (n) => `created ${n} folders`, kind: 'folder' },
  FOLDER_MOVE: { one: (o) => `moved ${o}`, many: (n) => `moved ${n} folders`, kind: 'folder' },
  FOLDER_UPDATE: { one: (o) => `renamed ${o}`, many: (n) => `renamed ${n} folders`, kind: 'folder' },
  FOLDER_REVOKE: { one: (o) => `hid ${o}`, many: (n) => `hid ${n} folders`, kind: 'folder' },
  FOLDER_RESTORE: { one: (o) => `restored ${o}`, many: (n) => `restored ${n} folders`, kind: 'folder' },
  VAULT_UPDATE: { one: () => 'renamed', many: () => 'renamed', kind: 'vault' },
  VAULT_UPDATE_METADATA: { one: () => 'updated the description of', many: () => 'updated the description of', kind: 'vault' },
  VAULT_ARCHIVE: { one: () => 'archived', many: () => 'archived', kind: 'vault' },
  VAULT_RESTORE: { one: () => 'restored', many: () => 'restored', kind: 'vault' },
  VAULT_DELETE: { one: () => 'deleted', many: () => 'deleted', kind: 'vault' },
  MEMO_CREATE: { one: () => 'posted a message', many: (n) => `posted ${n} messages`, kind: 'memo' },
  ADD_REACTION: { one: () => 'reacted to a message', many: (n) => `added ${n} reactions`, kind: 'memo' },
  REMOVE_REACTION: { one: () => 'removed a reaction', many: (n) => `removed ${n} reactions`, kind: 'memo' },
};

/** `vaultName` is the vault's name when this device knows it (an invitee's is sealed until they join). */
export function describeNotification(input: NotificationInput, vaultName: string | undefined, names: NotificationNames = {}): NotificationView {
  const { event, objectId, vaultId, fromEmail } = input;
  const who = names.authorName || fromEmail || 'Someone';
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
    case 'REFERRAL_REWARD':
      return { text: `${fromEmail ?? 'Someone'} signed up with your referral link: you earned 100 MB of permanent storage.`, target: { to: 'storage' } };
    case 'SERIOUS_ISSUE':
      return {
        text: "We're having some issues. You may find some features in the app are not working. Don't worry, we're on it!",
        target: { to: 'vaults' },
      };
  }
  const activity = ACTIVITY[event];
  if (!activity) return { text: `${who} made a change in ${vault}.`, target: toVault };
  const count = input.count ?? 1;
  if (activity.kind === 'vault') return { text: `${who} ${activity.one('')} ${vault}.`, target: { to: 'vaults' } };
  const object = names.objectName ? `"${names.objectName}"` : activity.kind === 'folder' ? 'a folder' : 'a file';
  const what = count > 1 ? activity.many(count) : activity.one(object);
  const target: NotificationView['target'] = !vaultId
    ? { to: 'vaults' }
    : activity.kind === 'memo'
      ? { to: 'chat', vaultId }
      : event === 'STACK_REVOKE'
        ? { to: 'revokedFiles', vaultId }
        : { to: 'vault', vaultId };
  return { text: `${who} ${what} in ${vault}.`, target };
}

/** Spec 000 section 9: the notifications page shows 10 at first, and Load more adds 10. */
export const NOTIFICATIONS_PAGE_SIZE = 10;

/** Spec 000 section 9: opening a vault marks its notifications read after about 3 s. */
export const VAULT_READ_DELAY_MS = 3_000;
