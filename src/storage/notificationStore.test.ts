import { describe, expect, it } from 'vitest';
import type { Notification } from '../protocol/members';
import { applyActions, type NotificationRecord, sortNotifications, summarizeUnread } from './notificationStore';

function row(id: string, patch: Partial<Notification> = {}): NotificationRecord {
  return {
    accountId: 'me',
    id,
    event: 'STACK_CREATE',
    objectType: 'stack',
    objectId: `file-${id}`,
    vaultId: 'v1',
    fromEmail: 'ann@example.com',
    status: 'UNREAD',
    createdAt: 1,
    count: 1,
    priority: 'NORMAL',
    ...patch,
  };
}

describe('notification cache (SYNC_SPEC R31)', () => {
  it('applies read and delete actions in the order taken', () => {
    const rows = [row('a'), row('b', { vaultId: 'v2' }), row('c', { status: 'READ' })];
    expect(applyActions([{ kind: 'readVault', vaultId: 'v1' }], rows).map((n) => n.status)).toEqual(['READ', 'UNREAD', 'READ']);
    expect(applyActions([{ kind: 'readVault', vaultId: 'v1' }, { kind: 'deleteRead' }], rows).map((n) => n.id)).toEqual(['b']);
    // Order matters: clearing the read ones before marking all read keeps the rest.
    expect(applyActions([{ kind: 'deleteRead' }, { kind: 'readAll' }], rows).map((n) => [n.id, n.status])).toEqual([
      ['a', 'READ'],
      ['b', 'READ'],
    ]);
    expect(applyActions([{ kind: 'read', id: 'b' }, { kind: 'delete', id: 'a' }], rows).map((n) => [n.id, n.status])).toEqual([
      ['b', 'READ'],
      ['c', 'READ'],
    ]);
    expect(applyActions([{ kind: 'deleteAll' }], rows)).toEqual([]);
  });

  it('sorts newest first like the server, and sums up what is unread for the dots and the notice bar', () => {
    const rows = sortNotifications([row('a', { createdAt: 1 }), row('c', { createdAt: 2, status: 'READ', priority: 'HIGH' }), row('b', { createdAt: 2 })]);
    expect(rows.map((n) => n.id)).toEqual(['c', 'b', 'a']);
    expect(summarizeUnread(rows)).toEqual({ any: true, vaultIds: new Set(['v1']), priority: null });
    const serious = row('s', { event: 'SERIOUS_ISSUE', objectType: 'dataroom', vaultId: null, priority: 'HIGH' });
    expect(summarizeUnread([serious, ...rows]).priority).toBe(serious);
    expect(summarizeUnread([{ ...serious, status: 'READ' }])).toEqual({ any: false, vaultIds: new Set(), priority: null });
  });
});
