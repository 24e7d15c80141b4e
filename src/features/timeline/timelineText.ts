/**
 * The timeline's words and times (spec 000 sections 2 and 9): what each item says, the date
 * badges (Today, Yesterday, or weekday plus month and day) and relative times ('Just now',
 * minutes, hours, Yesterday, then a date). Pure; the clock is a parameter.
 */
import type { TimelineAction, TimelineEntry, TimelineItem } from './timelineItems';

const ROLE_NAMES: Record<string, string> = { OWNER: 'Owner', CONTRIBUTOR: 'Contributor', VIEWER: 'Viewer', REVOKED: 'Revoked' };

export function roleName(role: string | null): string {
  return role ? (ROLE_NAMES[role] ?? role) : '';
}

/**
 * What the item says after its author's name, and the object it names (shown apart, in bold).
 * `before` + object + `after`: 'renamed the folder to' + 'Plans'.
 */
export function describeItem(item: TimelineItem): { before: string; object: string | null; after: string } {
  const kind = item.nodeKind === 'folder' ? 'the folder' : item.nodeKind === 'file' ? 'the file' : 'the item';
  const name = item.name;
  const say = (before: string, object: string | null = name, after = '') => ({ before, object, after });
  switch (item.action) {
    case 'file.upload':
      return say('uploaded');
    case 'file.version':
      return say('uploaded a new version of');
    case 'note.create':
      return say('created a note');
    case 'note.version':
      return say('saved a new version of a note');
    case 'folder.create':
      return say('created the folder');
    case 'node.rename':
      return say(`renamed ${kind} to`);
    case 'node.move':
      return say(`moved ${kind}`, name, item.targetName ? ` to ${item.targetName}` : ' to the vault root');
    case 'node.hide':
      return say(`hid ${kind}`);
    case 'node.restore':
      return say(`restored ${kind}`);
    case 'node.delete':
      return say(`removed ${kind}`);
    case 'member.invite':
      return say('invited', name, item.role ? ` as ${roleName(item.role)}` : '');
    case 'member.verified':
      return say('invited', name, ', who is waiting for you to confirm access');
    case 'member.confirm':
      return say('confirmed access for');
    case 'member.accept':
      return say('accepted the terms of access', null);
    case 'member.reject':
      return say('declined the invitation', null);
    case 'member.changeRole':
      return say('changed the role of', name, item.role ? ` to ${roleName(item.role)}` : '');
    case 'member.revoke':
      return say('revoked access for');
    case 'member.leave':
      return say('left the vault', null);
    case 'member.airdrop':
      return say('created an airdrop link for', name, item.role ? ` as ${roleName(item.role)}` : '');
    case 'vault.create':
      return say('created the vault');
    case 'vault.rename':
      return say('renamed the vault to');
    case 'vault.updateMetadata':
      return say('updated the description and tags', null);
    case 'vault.archive':
      return say('archived the vault', null);
    case 'vault.restore':
      return say('restored the vault', null);
    case 'vault.delete':
      return say('removed the vault', null);
    case 'vault.rotateKeys':
      return say('renewed the vault key', null);
    case 'memo':
      return say('sent a message', null);
    case 'unknown':
      return say('Unknown action', null);
  }
}

/** The Action filter's choices, each standing for some item actions. */
export const ACTION_FILTERS: ReadonlyArray<{ value: string; label: string; actions: readonly TimelineAction[] }> = [
  { value: 'upload', label: 'Uploads', actions: ['file.upload', 'note.create'] },
  { value: 'version', label: 'New versions', actions: ['file.version', 'note.version'] },
  { value: 'folder', label: 'New folders', actions: ['folder.create'] },
  { value: 'rename', label: 'Renames', actions: ['node.rename', 'vault.rename'] },
  { value: 'move', label: 'Moves', actions: ['node.move'] },
  { value: 'hide', label: 'Hidden', actions: ['node.hide'] },
  { value: 'restore', label: 'Restored', actions: ['node.restore', 'vault.restore'] },
  { value: 'remove', label: 'Removed', actions: ['node.delete', 'vault.delete'] },
  {
    value: 'members',
    label: 'Members',
    actions: ['member.invite', 'member.verified', 'member.confirm', 'member.accept', 'member.reject', 'member.changeRole', 'member.revoke', 'member.leave', 'member.airdrop'],
  },
  { value: 'messages', label: 'Messages', actions: ['memo'] },
  { value: 'vault', label: 'Vault', actions: ['vault.create', 'vault.updateMetadata', 'vault.archive', 'vault.rotateKeys'] },
];

// --- dates -----------------------------------------------------------------------------------

function startOfDay(time: number): number {
  const date = new Date(time);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

/** Whole calendar days from `time` to `now` in local time (0: same day). */
function daysBefore(time: number, now: number): number {
  return Math.round((startOfDay(now) - startOfDay(time)) / 86_400_000);
}

// Formatters made once: toLocaleDateString builds one per call, and rows are formatted as they scroll in.
const BADGE_DATE = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric' });
const SHORT_DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** The date badge over a day's items: 'Today', 'Yesterday' or 'Monday, November 16'. */
export function dateBadge(time: number, now: number): string {
  const days = daysBefore(time, now);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return BADGE_DATE.format(time);
}

/**
 * A time relative to now (spec 000 section 9): 'Just now' within 5 minutes, then '12 minutes
 * ago', '3 hours ago' (the same day), 'Yesterday', then the date.
 */
export function relativeTime(time: number, now: number): string {
  const minutes = Math.floor(Math.max(0, now - time) / 60_000);
  if (minutes < 5) return 'Just now';
  const days = daysBefore(time, now);
  if (days <= 0) {
    if (minutes < 60) return `${minutes} minutes ago`;
    const hours = Math.floor(minutes / 60);
    return hours === 1 ? '1 hour ago' : `${hours} hours ago`;
  }
  if (days === 1) return 'Yesterday';
  return SHORT_DATE.format(time);
}

/** A line of the rendered list: a date badge, or an entry. */
export type TimelineRow = { kind: 'date'; key: string; label: string } | { kind: 'entry'; key: string; entry: TimelineEntry };

/**
 * Puts a date badge before the first entry of each day (entries newest first; a group dates by
 * its newest item). The label is worked out once per day, not per entry: this runs over every
 * shown entry on each 'Load more activity...'.
 */
export function withDateBadges(entries: readonly TimelineEntry[], now: number): TimelineRow[] {
  const rows: TimelineRow[] = [];
  let last: string | null = null;
  let lastDay: number | null = null;
  for (const entry of entries) {
    const time = entry.items[0]!.postedAt;
    const day = startOfDay(time);
    if (day !== lastDay) {
      const label = dateBadge(time, now);
      if (label !== last) rows.push({ kind: 'date', key: `date:${label}:${entry.key}`, label });
      last = label;
      lastDay = day;
    }
    rows.push({ kind: 'entry', key: entry.key, entry });
  }
  return rows;
}
