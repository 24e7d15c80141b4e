/**
 * Chat rules (spec 000 section 2, Chat; section 4, Reactions; section 5; section 6). Pure.
 */
import { MEMO_LIMITS, type Role, type VaultStatus } from '../protocol/vaults';

/**
 * The quick list of 8 reactions. The spec does not give the list itself (docs/decisions.md), so
 * these are the usual ones of chat apps.
 */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '🎉', '😮', '😢', '🙏', '👀'] as const;

/** How long a newly arrived message stays highlighted (ms). */
export const NEW_MEMO_HIGHLIGHT_MS = 2_000;

/** Rows the message input grows to before it scrolls. */
export const INPUT_MAX_ROWS = 5;

export type MessageProblem = 'EMPTY' | 'TOO_LONG';

/** The text to post (trimmed), or why it cannot be posted: empty or whitespace-only texts are not posted. */
export function checkMessage(text: string): { text: string; problem: null } | { text: null; problem: MessageProblem } {
  const trimmed = text.trim();
  if (!trimmed) return { text: null, problem: 'EMPTY' };
  if (trimmed.length > MEMO_LIMITS.MESSAGE_MAX) return { text: null, problem: 'TOO_LONG' };
  return { text: trimmed, problem: null };
}

export interface ChatAccess {
  role: Role;
  status: VaultStatus;
  isReadOnly: boolean;
}

/**
 * Whether the user may post and react, and when not, the note that says why (spec 000 section 6:
 * VIEWER and read-only mode cannot post messages or react; nobody adds to an archived vault).
 */
export function chatPermission(access: ChatAccess): { canPost: true; reason: null } | { canPost: false; reason: string } {
  if (access.isReadOnly) return { canPost: false, reason: 'The app is in read-only mode: messages cannot be sent right now.' };
  if (access.status !== 'ACTIVE') return { canPost: false, reason: 'This vault is archived: its chat is read-only.' };
  if (access.role !== 'OWNER' && access.role !== 'CONTRIBUTOR') return { canPost: false, reason: 'Viewers can read the chat but cannot send messages or react.' };
  return { canPost: true, reason: null };
}

/** One reaction chip under a message: the emoji, how many members chose it, and whether I did. */
export interface ReactionChip {
  emoji: string;
  count: number;
  isMine: boolean;
  /** My reaction is still in the outbox. */
  isPending: boolean;
}

/** The chips of a memo's reactions, in the order each emoji was first used. */
export function reactionChips(reactions: readonly { emoji: string; authorKey: string; isAdded: boolean; pendingOpId: string | null }[], myKey: string): ReactionChip[] {
  const chips = new Map<string, ReactionChip>();
  for (const reaction of reactions) {
    if (!reaction.isAdded) continue;
    const chip = chips.get(reaction.emoji) ?? { emoji: reaction.emoji, count: 0, isMine: false, isPending: false };
    chip.count += 1;
    if (reaction.authorKey === myKey) {
      chip.isMine = true;
      chip.isPending = reaction.pendingOpId !== null;
    }
    chips.set(reaction.emoji, chip);
  }
  return [...chips.values()];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * A message's time (spec 000 section 9, relative time): 'Just now' within 5 minutes, then
 * minutes, hours (the same day), 'Yesterday', then the date.
 */
export function formatMemoTime(timestamp: number, now: number): string {
  const elapsed = Math.max(0, now - timestamp);
  if (elapsed < 5 * MINUTE) return 'Just now';
  const then = new Date(timestamp);
  const today = new Date(now);
  const isSameDay = then.toDateString() === today.toDateString();
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)} minutes ago`;
  if (isSameDay) {
    const hours = Math.floor(elapsed / HOUR);
    return hours === 1 ? '1 hour ago' : `${hours} hours ago`;
  }
  const yesterday = new Date(now);
  yesterday.setDate(yesterday.getDate() - 1);
  if (then.toDateString() === yesterday.toDateString()) return 'Yesterday';
  return then.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** A long message shows this many lines until its 'more' is pressed (issue 26: one filled the timeline). */
export const MEMO_CLAMP_LINES = 8;
/**
 * Characters that fit on one line of the narrowest bubble (85% of a 375 px phone, 14 px text):
 * a line longer than this wraps. Counting against the narrowest width means a message that is
 * cut on a phone always gets its 'more'; on a desktop one just over the limit may show 'more'
 * with little hidden, which costs a click, while the reverse would hide text without a way to it.
 */
const CHARS_PER_BUBBLE_LINE = 36;

/** Whether a message is taller than MEMO_CLAMP_LINES lines and so is shown clamped, with 'more'. */
export function isLongMemo(text: string): boolean {
  let lines = 0;
  for (const line of text.split('\n')) {
    lines += Math.max(1, Math.ceil(line.length / CHARS_PER_BUBBLE_LINE));
    if (lines > MEMO_CLAMP_LINES) return true;
  }
  return false;
}
