/**
 * The activity timeline's items (spec 000 section 2, Timeline; docs/SYNC_SPEC.md R28-R29), made
 * from the vault's own operation log as this device pulled it. Pure: the page reads Dexie and
 * hands the records in, so every rule here is unit-tested without a database.
 *
 * Only operations whose signature the device verified become items (R29): the server cannot slip
 * an action in under a member's name. This device's own operations still in the outbox are shown
 * as pending until the server accepts them and the pull brings them back.
 */
import { OPERATION_RULES } from '../../protocol/operationRules';
import type { Operation, OperationType } from '../../protocol/vaults';

/** Drafts and reactions are never items (R28); a type this version does not know is ('Unknown action'). */
function isHiddenType(type: string): boolean {
  return Object.hasOwn(OPERATION_RULES, type) && !OPERATION_RULES[type as OperationType].isTimelineItem;
}

/** What an item says happened. `unknown` shows 'Unknown action'. */
export type TimelineAction =
  | 'file.upload'
  | 'file.version'
  | 'note.create'
  | 'note.version'
  | 'node.rename'
  | 'node.move'
  | 'node.hide'
  | 'node.restore'
  | 'node.delete'
  | 'folder.create'
  | 'member.invite'
  | 'member.verified'
  | 'member.confirm'
  | 'member.accept'
  | 'member.reject'
  | 'member.changeRole'
  | 'member.revoke'
  | 'member.leave'
  | 'member.airdrop'
  | 'vault.create'
  | 'vault.rename'
  | 'vault.updateMetadata'
  | 'vault.archive'
  | 'vault.restore'
  | 'vault.delete'
  | 'vault.rotateKeys'
  | 'memo'
  | 'unknown';

/** A file version's storage status on a permanent vault (issue 7); cloud versions have none. */
export type VersionStatus = 'received' | 'bundling' | 'sent' | 'rejected' | 'malicious' | 'committed';

export interface Reaction {
  emoji: string;
  count: number;
  /** The viewer reacted with it. */
  isMine: boolean;
}

export interface TimelineItem {
  /** The operation id. */
  id: string;
  /** The server's order; null while pending in this device's outbox. */
  seq: number | null;
  /** Server receive time (ms); the device's own clock while pending. */
  postedAt: number;
  groupRef: string | null;
  action: TimelineAction;
  /** The operation's type as signed (the 'Unknown action' ones keep theirs for the filter). */
  opType: string;
  objectId: string;
  authorKey: string;
  /** 'You', the member's profile name or e-mail, or 'A former member'. */
  authorName: string;
  isYou: boolean;
  isPending: boolean;
  /** File or folder, for node actions. */
  nodeKind: 'file' | 'folder' | null;
  /** The object's name: a file, folder, vault or member; null when unknown. */
  name: string | null;
  /** File actions: the version's MIME type ('' when not known). */
  mimeType: string;
  /** node.move: the destination folder's name, null for the vault root. */
  targetName: string | null;
  /** member.invite / member.changeRole / member.airdrop: the role given. */
  role: string | null;
  /** vault.create with terms of access: the terms, as text. */
  terms: string | null;
  /** memo: the message text, and its reactions. */
  message: string | null;
  reactions: Reaction[];
  versionStatus: VersionStatus | null;
  /** file.create / file.addVersion: the version uploaded, whose storage status the dot shows. */
  versionId?: string | null;
}

/** One pulled or pending operation with its opened fields, as the page reads them from Dexie. */
export interface TimelineOp {
  seq: number | null;
  postedAt: number;
  op: Operation;
  /** Signature checked on this device (always true for this device's own outbox operations). */
  isVerified: boolean;
  fields: Partial<Record<string, string | null>>;
  isPending: boolean;
}

export interface TimelineMember {
  membershipId: string;
  publicSigningKey: string;
  email: string | null;
  profileName: string | null;
  status: string;
}

export interface TimelineNode {
  id: string;
  kind: 'file' | 'folder';
  name: string;
  mimeType: string;
}

export interface TimelineContext {
  /** The viewer's public signing key (hex), shown as 'You'. */
  viewerKey: string;
  /** The viewer's role in the vault: USER_VERIFIED entries are the OWNER's. */
  viewerRole: string;
  members: readonly TimelineMember[];
  nodes: ReadonlyMap<string, TimelineNode>;
}

/** Notes are markdown files (spec 000 section 3, Note). */
export const NOTE_MIME = 'text/markdown';

export function memberDisplayName(member: Pick<TimelineMember, 'email' | 'profileName'>): string {
  return member.profileName?.trim() || member.email || 'A member';
}

/**
 * USER_VERIFIED entries (an invited member waiting for the owner to confirm access) are shown
 * only to an OWNER, and only while that member is still INVITED (spec 000 section 2, Timeline).
 */
export function isUserVerifiedShown(viewerRole: string, memberStatus: string | undefined): boolean {
  return viewerRole === 'OWNER' && memberStatus === 'INVITED';
}

/** An invitee the viewer's member list does not show (viewers do not see pending members). */
export const INVITEE_NOT_LISTED = 'someone';

/** Operations that are never items of their own. */

/**
 * Reactions of each memo: the last `memo.react` per author and emoji wins (added or removed),
 * counted per emoji in order of first use. Unverified reactions count for nothing.
 */
export function collectReactions(ops: readonly TimelineOp[], viewerKey: string): Map<string, Reaction[]> {
  const latest = new Map<string, Map<string, { emoji: string; author: string; isAdded: boolean }>>();
  for (const entry of ops) {
    const { op } = entry;
    if (!entry.isVerified || (op.body.type as string) !== 'memo.react') continue;
    const emoji = entry.fields.reaction;
    if (!emoji) continue;
    const isAdded = (op.body as unknown as { isAdded?: unknown }).isAdded === true;
    let perMemo = latest.get(op.objectId);
    if (!perMemo) latest.set(op.objectId, (perMemo = new Map()));
    const key = `${op.author}\u0000${emoji}`;
    perMemo.delete(key); // re-insert: order of the last word, then grouped by first emoji below
    perMemo.set(key, { emoji, author: op.author, isAdded });
  }
  const result = new Map<string, Reaction[]>();
  for (const [memoId, perMemo] of latest) {
    const byEmoji = new Map<string, Reaction>();
    for (const { emoji, author, isAdded } of perMemo.values()) {
      if (!isAdded) continue;
      const reaction = byEmoji.get(emoji) ?? { emoji, count: 0, isMine: false };
      reaction.count += 1;
      reaction.isMine ||= author === viewerKey;
      byEmoji.set(emoji, reaction);
    }
    result.set(memoId, [...byEmoji.values()]);
  }
  return result;
}

/**
 * Every timeline item of a vault, newest first (by postedAt, then seq; pending ones, being the
 * newest, on top). Unverified operations and those that are never items are left out, and so
 * are USER_VERIFIED entries the viewer may not see.
 */
export function buildTimeline(ops: readonly TimelineOp[], ctx: TimelineContext): TimelineItem[] {
  const byKey = new Map(ctx.members.map((m) => [m.publicSigningKey, m]));
  const byMembership = new Map(ctx.members.map((m) => [m.membershipId, m]));
  const reactions = collectReactions(ops, ctx.viewerKey);
  const seen = new Set<string>();
  const items: TimelineItem[] = [];
  for (const entry of ops) {
    if (!entry.isVerified || seen.has(entry.op.id)) continue;
    seen.add(entry.op.id);
    const item = toItem(entry, ctx, byKey, byMembership, reactions);
    if (item) items.push(item);
  }
  return items.sort(compareNewestFirst);
}

/** Node operations whose items take the node's kind and current name from the projection. */
const NODE_TYPES = new Set(['node.rename', 'node.hide', 'node.restore', 'node.delete', 'node.move']);

/**
 * The ids of the nodes buildTimeline looks up for `ops` (TimelineContext.nodes): the objects of
 * node operations, the folders moved into, and files or folders whose operation lacks a field
 * the item shows. Creations carry their own name (and files their MIME type), so a vault of
 * 10,000 uploads needs none of its 10,000 nodes read for its timeline.
 */
export function timelineNodeIds(ops: readonly TimelineOp[]): string[] {
  const ids = new Set<string>();
  for (const { op, fields, isVerified } of ops) {
    if (!isVerified) continue;
    const type = op.body.type as string;
    if (NODE_TYPES.has(type)) {
      ids.add(op.objectId);
      const parentId = (op.body as unknown as { parentId?: unknown }).parentId;
      if (type === 'node.move' && typeof parentId === 'string') ids.add(parentId);
    } else if (type === 'file.create' || type === 'file.addVersion') {
      if (fields.name == null || fields.mimeType == null) ids.add(op.objectId);
    } else if (type === 'folder.create') {
      if (fields.name == null) ids.add(op.objectId);
    }
  }
  return [...ids];
}

function compareNewestFirst(a: TimelineItem, b: TimelineItem): number {
  if (a.isPending !== b.isPending) return a.isPending ? -1 : 1;
  return b.postedAt - a.postedAt || (b.seq ?? 0) - (a.seq ?? 0) || (a.id < b.id ? 1 : -1);
}

function toItem(
  entry: TimelineOp,
  ctx: TimelineContext,
  byKey: ReadonlyMap<string, TimelineMember>,
  byMembership: ReadonlyMap<string, TimelineMember>,
  reactions: ReadonlyMap<string, Reaction[]>,
): TimelineItem | null {
  const { op, fields } = entry;
  const type = op.body.type as string;
  if (isHiddenType(type)) return null;
  const author = byKey.get(op.author);
  const isYou = op.author === ctx.viewerKey;
  const node = ctx.nodes.get(op.objectId);
  const item: TimelineItem = {
    id: op.id,
    seq: entry.seq,
    postedAt: entry.postedAt,
    groupRef: op.groupRef ?? null,
    action: 'unknown',
    opType: type,
    objectId: op.objectId,
    authorKey: op.author,
    authorName: isYou ? 'You' : author ? memberDisplayName(author) : 'A former member',
    isYou,
    isPending: entry.isPending,
    nodeKind: null,
    name: null,
    mimeType: '',
    targetName: null,
    role: null,
    terms: null,
    message: null,
    reactions: [],
    versionStatus: null,
  };
  const body = op.body as unknown as Record<string, unknown>;
  const target = byMembership.get(op.objectId);
  const memberName = target ? memberDisplayName(target) : null;

  switch (type) {
    case 'file.create':
    case 'file.addVersion': {
      const mimeType = fields.mimeType ?? node?.mimeType ?? '';
      const isNote = mimeType === NOTE_MIME;
      const isNew = type === 'file.create';
      return {
        ...item,
        action: isNote ? (isNew ? 'note.create' : 'note.version') : isNew ? 'file.upload' : 'file.version',
        nodeKind: 'file',
        name: fields.name ?? node?.name ?? null,
        mimeType,
        versionId: (body.version as { versionId?: string } | undefined)?.versionId ?? null,
      };
    }
    case 'folder.create':
      return { ...item, action: 'folder.create', nodeKind: 'folder', name: fields.name ?? node?.name ?? null };
    case 'node.rename':
    case 'node.hide':
    case 'node.restore':
    case 'node.delete':
    case 'node.move': {
      const parentId = body.parentId as string | null | undefined;
      return {
        ...item,
        action: type as TimelineAction,
        nodeKind: node?.kind ?? null,
        name: fields.name ?? node?.name ?? null,
        mimeType: node?.kind === 'file' ? node.mimeType : '',
        targetName: type === 'node.move' && parentId ? (ctx.nodes.get(parentId)?.name ?? null) : null,
      };
    }
    case 'vault.create':
      return { ...item, action: 'vault.create', name: fields.name ?? null, terms: fields.terms || null };
    case 'vault.rename':
      return { ...item, action: 'vault.rename', name: fields.name ?? null };
    case 'vault.updateMetadata':
    case 'vault.archive':
    case 'vault.restore':
    case 'vault.delete':
    case 'vault.rotateKeys':
      return { ...item, action: type };
    case 'member.invite': {
      const isAwaitingConfirmation = target?.status === 'INVITED';
      if (isAwaitingConfirmation && !isUserVerifiedShown(ctx.viewerRole, target.status)) return null;
      return {
        ...item,
        action: isAwaitingConfirmation ? 'member.verified' : 'member.invite',
        // From the member list the server answers, by membership id; never an e-mail an old
        // invitation carried in its body (R55). A viewer's list leaves out pending invitees.
        name: memberName ?? INVITEE_NOT_LISTED,
        role: typeof body.role === 'string' ? body.role : null,
      };
    }
    case 'member.airdrop':
      return { ...item, action: 'member.airdrop', name: fields.name ?? memberName, role: typeof body.role === 'string' ? body.role : null };
    case 'member.changeRole':
      return { ...item, action: 'member.changeRole', name: memberName, role: typeof body.role === 'string' ? body.role : null };
    case 'member.confirm':
    case 'member.accept':
    case 'member.reject':
    case 'member.revoke':
    case 'member.leave':
      return { ...item, action: type, name: memberName };
    case 'memo.create':
      return { ...item, action: 'memo', message: fields.message ?? null, reactions: reactions.get(op.objectId) ?? [] };
    default:
      return item;
  }
}

// --- grouping --------------------------------------------------------------------------------

/** One line of the timeline: a single item, or consecutive items of one batch action. */
export interface TimelineEntry {
  key: string;
  items: TimelineItem[];
}

/** Consecutive items with the same groupRef become one entry (spec 000 section 2, Timeline). */
export function groupItems(items: readonly TimelineItem[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  for (const item of items) {
    const last = entries.at(-1);
    if (last && item.groupRef !== null && last.items[0]!.groupRef === item.groupRef) last.items.push(item);
    else entries.push({ key: item.id, items: [item] });
  }
  return entries;
}

function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** A group's line after the author's name: 'uploaded 12 files', 'hid 3 items'. */
export function groupSummary(items: readonly TimelineItem[]): string {
  const count = items.length;
  const action = items[0]!.action;
  const isAllFiles = items.every((i) => i.nodeKind === 'file');
  const isAllFolders = items.every((i) => i.nodeKind === 'folder');
  const things = isAllFiles ? plural(count, 'file', 'files') : isAllFolders ? plural(count, 'folder', 'folders') : plural(count, 'item', 'items');
  switch (action) {
    case 'file.upload':
    case 'file.version':
    case 'note.create':
    case 'note.version':
      return `uploaded ${things}`;
    case 'folder.create':
      return `created ${things}`;
    case 'node.move':
      return `moved ${things}`;
    case 'node.hide':
      return `hid ${things}`;
    case 'node.restore':
      return `restored ${things}`;
    case 'node.delete':
      return `removed ${things}`;
    case 'node.rename':
      return `renamed ${things}`;
    default:
      return `made ${plural(count, 'change', 'changes')}`;
  }
}
