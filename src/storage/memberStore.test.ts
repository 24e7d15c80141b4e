import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Member } from '../protocol/members';
import { CairnDb } from './db';
import { getMembers, replaceMembers } from './memberStore';

let db: CairnDb;
beforeEach(() => {
  db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
});
afterEach(() => db.close());

function member(membershipId: string, email: string, role: Member['role'], status: Member['status'] = 'ACCEPTED'): Member {
  return {
    membershipId,
    userId: `u-${membershipId}`,
    email,
    profileName: null,
    address: 'A'.repeat(43),
    publicSigningKey: 'a'.repeat(64),
    publicEncryptionKey: 'b'.repeat(64),
    role,
    status,
    holdsKeys: status !== 'REVOKED',
    isPasswordless: false,
    expiresAt: null,
    storageAllowance: null,
    invitedByUserId: null,
    createdAt: 1,
    updatedAt: 1,
  };
}

describe('memberStore', () => {
  it("replaces one vault's members whole, leaving other vaults and accounts alone", async () => {
    await replaceMembers(db, 'acc1', 'v1', [member('m1', 'old@example.com', 'VIEWER'), member('m2', 'gone@example.com', 'VIEWER')]);
    await replaceMembers(db, 'acc1', 'v2', [member('m9', 'other@example.com', 'OWNER')]);
    await replaceMembers(db, 'acc2', 'v1', [member('m1', 'old@example.com', 'VIEWER')]);

    await replaceMembers(db, 'acc1', 'v1', [member('m1', 'old@example.com', 'CONTRIBUTOR'), member('m3', 'new@example.com', 'OWNER')]);
    expect((await getMembers(db, 'acc1', 'v1')).map((m) => [m.membershipId, m.role])).toEqual([['m3', 'OWNER'], ['m1', 'CONTRIBUTOR']]);
    expect((await getMembers(db, 'acc1', 'v2')).map((m) => m.membershipId)).toEqual(['m9']);
    expect((await getMembers(db, 'acc2', 'v1')).map((m) => m.role)).toEqual(['VIEWER']);
  });

  it('lists owners, contributors, viewers, then revoked members, by e-mail within a role', async () => {
    await replaceMembers(db, 'acc1', 'v1', [
      member('m1', 'zed@example.com', 'VIEWER'),
      member('m2', 'was@example.com', 'REVOKED', 'REVOKED'),
      member('m3', 'amy@example.com', 'VIEWER'),
      member('m4', 'own@example.com', 'OWNER'),
      member('m5', 'con@example.com', 'CONTRIBUTOR'),
    ]);
    expect((await getMembers(db, 'acc1', 'v1')).map((m) => m.email)).toEqual([
      'own@example.com',
      'con@example.com',
      'amy@example.com',
      'zed@example.com',
      'was@example.com',
    ]);
  });
});
