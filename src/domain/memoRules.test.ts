import { describe, expect, it } from 'vitest';
import { MEMO_LIMITS } from '../protocol/vaults';
import { chatPermission, checkMessage, formatMemoTime, QUICK_REACTIONS, reactionChips } from './memoRules';

describe('memoRules', () => {
  it('empty or whitespace-only messages are not posted; others are trimmed', () => {
    expect(checkMessage('')).toEqual({ text: null, problem: 'EMPTY' });
    expect(checkMessage(' \n\t ')).toEqual({ text: null, problem: 'EMPTY' });
    expect(checkMessage('  Hi\nthere \n')).toEqual({ text: 'Hi\nthere', problem: null });
  });

  it(`a message is at most ${MEMO_LIMITS.MESSAGE_MAX} characters`, () => {
    expect(checkMessage('x'.repeat(MEMO_LIMITS.MESSAGE_MAX)).problem).toBeNull();
    expect(checkMessage('x'.repeat(MEMO_LIMITS.MESSAGE_MAX + 1))).toEqual({ text: null, problem: 'TOO_LONG' });
  });

  it('the quick list holds 8 distinct emoji', () => {
    expect(new Set(QUICK_REACTIONS).size).toBe(8);
  });

  it('VIEWER, read-only mode and archived vaults cannot post, each with its reason', () => {
    expect(chatPermission({ role: 'OWNER', status: 'ACTIVE', isReadOnly: false }).canPost).toBe(true);
    expect(chatPermission({ role: 'CONTRIBUTOR', status: 'ACTIVE', isReadOnly: false }).canPost).toBe(true);
    expect(chatPermission({ role: 'VIEWER', status: 'ACTIVE', isReadOnly: false }).reason).toMatch(/Viewers/);
    expect(chatPermission({ role: 'OWNER', status: 'ARCHIVED', isReadOnly: false }).reason).toMatch(/archived/);
    expect(chatPermission({ role: 'OWNER', status: 'ACTIVE', isReadOnly: true }).reason).toMatch(/read-only/);
  });

  it('chips count added reactions per emoji and mark mine', () => {
    const me = 'a';
    const chips = reactionChips(
      [
        { emoji: '👍', authorKey: 'b', isAdded: true, pendingOpId: null },
        { emoji: '🎉', authorKey: me, isAdded: false, pendingOpId: null },
        { emoji: '👍', authorKey: me, isAdded: true, pendingOpId: 'op1' },
        { emoji: '❤️', authorKey: 'c', isAdded: true, pendingOpId: null },
      ],
      me,
    );
    expect(chips).toEqual([
      { emoji: '👍', count: 2, isMine: true, isPending: true },
      { emoji: '❤️', count: 1, isMine: false, isPending: false },
    ]);
  });

  it('times: Just now within 5 minutes, then minutes, hours, Yesterday, a date', () => {
    const now = new Date(2026, 5, 10, 15, 0).getTime();
    expect(formatMemoTime(now - 4 * 60_000, now)).toBe('Just now');
    expect(formatMemoTime(now - 12 * 60_000, now)).toBe('12 minutes ago');
    expect(formatMemoTime(now - 3 * 3_600_000, now)).toBe('3 hours ago');
    expect(formatMemoTime(new Date(2026, 5, 9, 23, 0).getTime(), now)).toBe('Yesterday');
    expect(formatMemoTime(new Date(2026, 5, 1, 12, 0).getTime(), now)).toMatch(/2026/);
  });
});
