import { describe, expect, it } from 'vitest';
import type { OperationBody, SequencedOperation } from '../protocol/vaults';
import { judgeOperation, judgePublicOperation, newVaultLogState, sealedRingDigest, trustedRingKeyCount, type VaultLogState } from './vaultLog';

const VAULT = 'vault-1';
const OWNER = 'aa'.repeat(32);
const CONTRIBUTOR = 'bb'.repeat(32);
const VIEWER = 'cc'.repeat(32);
const STRANGER = 'dd'.repeat(32);
const SEALED = { key: 0, c: 'c2VhbGVk' };

/** A log being written: each `add` is the next seq, judged at once. */
class Log {
  readonly state: VaultLogState = newVaultLogState();
  private seq = 0;

  add(author: string, body: OperationBody, objectId = `obj-${this.seq + 1}`, options: { isSignatureValid?: boolean; receivedAt?: number } = {}) {
    this.seq += 1;
    const entry: SequencedOperation = {
      seq: this.seq,
      receivedAt: options.receivedAt ?? 1_000 + this.seq,
      op: { id: `op-${this.seq}`, vaultId: VAULT, objectId, author, createdAt: 1, body, signature: 'x'.repeat(86) },
    };
    return judgeOperation(this.state, VAULT, entry, options.isSignatureValid ?? true);
  }

  accepted(...args: Parameters<Log['add']>): void {
    expect(this.add(...args)).toEqual({ isAccepted: true });
  }
}

/** A private vault with a CONTRIBUTOR (membership m-c) and a VIEWER (m-v), both accepted. */
function privateVault(): Log {
  const log = new Log();
  log.accepted(OWNER, { type: 'vault.create', isPublic: false, isCloud: true, name: SEALED, ownerKeys: 'ring-owner' }, VAULT);
  log.accepted(OWNER, { type: 'member.invite', email: 'c@example.com', role: 'CONTRIBUTOR', memberKey: CONTRIBUTOR, keys: 'ring-c', keyCount: 1 }, 'm-c');
  log.accepted(CONTRIBUTOR, { type: 'member.accept' }, 'm-c');
  log.accepted(OWNER, { type: 'member.invite', email: 'v@example.com', role: 'VIEWER', memberKey: VIEWER, keys: 'ring-v', keyCount: 1 }, 'm-v');
  log.accepted(VIEWER, { type: 'member.accept' }, 'm-v');
  return log;
}

const folder = (): OperationBody => ({ type: 'folder.create', parentId: null, name: SEALED });

describe('the client judges the vault log (R50)', () => {
  it('R50: members write as their role allows; a viewer, a stranger and a bad signature are refused, and the first refusal is kept', () => {
    const log = privateVault();
    log.accepted(OWNER, folder());
    log.accepted(CONTRIBUTOR, folder());
    expect(log.add(VIEWER, folder())).toEqual({ isAccepted: false, reason: 'its author was a VIEWER and folder.create needs an OWNER or CONTRIBUTOR' });
    expect(log.add(STRANGER, folder())).toEqual({ isAccepted: false, reason: 'its author was not a member of the vault' });
    expect(log.add(OWNER, folder(), 'x', { isSignatureValid: false })).toEqual({ isAccepted: false, reason: 'its signature does not verify' });
    expect(log.add(CONTRIBUTOR, { type: 'vault.rename', name: SEALED })).toMatchObject({ isAccepted: false });
    expect(log.state.problem).toEqual({ seq: 8, reason: 'its author was a VIEWER and folder.create needs an OWNER or CONTRIBUTOR' });
    expect(log.state.seq).toBe(11);
  });

  it('R50: only owners manage members; an invitee acts only on their own membership', () => {
    const log = privateVault();
    expect(log.add(CONTRIBUTOR, { type: 'member.invite', email: 's@example.com', role: 'OWNER', memberKey: STRANGER, keys: 'r', keyCount: 1 }, 'm-s')).toMatchObject({ isAccepted: false });
    log.accepted(OWNER, { type: 'member.invite', email: 's@example.com', role: 'OWNER', memberKey: STRANGER, keys: 'ring-s', keyCount: 1 }, 'm-s');
    // Someone else accepting the stranger's invitation, then the invitee writing before accepting.
    expect(log.add(CONTRIBUTOR, { type: 'member.accept' }, 'm-s')).toEqual({ isAccepted: false, reason: 'only the member can do this' });
    expect(log.add(STRANGER, folder())).toEqual({ isAccepted: false, reason: 'its author was not a member of the vault' });
    log.accepted(STRANGER, { type: 'member.accept' }, 'm-s');
    log.accepted(STRANGER, { type: 'vault.rename', name: SEALED }, VAULT);
  });

  it('R50: a revoked member and an expired airdrop link write nothing more', () => {
    const log = privateVault();
    log.accepted(OWNER, { type: 'member.revoke', rotation: { keyCount: 2, sealedKeys: { 'creator-m': 'ring-o2', 'm-v': 'ring-v2' } } }, 'm-c');
    expect(log.add(CONTRIBUTOR, folder())).toEqual({ isAccepted: false, reason: 'its author was not a member of the vault' });
    const airdrop: OperationBody = { type: 'member.airdrop', name: { key: 1, c: 'bmFtZQ' }, role: 'CONTRIBUTOR', memberKey: STRANGER, memberEncryptionKey: STRANGER, keys: 'ring-a', keyCount: 2, expiresAt: 5_000, storageAllowance: 0 };
    log.accepted(OWNER, airdrop, 'm-a');
    log.accepted(STRANGER, { type: 'folder.create', parentId: null, name: { key: 1, c: 'eA' } }, 'f-1', { receivedAt: 4_999 });
    expect(log.add(STRANGER, { type: 'folder.create', parentId: null, name: { key: 1, c: 'eA' } }, 'f-2', { receivedAt: 5_001 })).toEqual({
      isAccepted: false,
      reason: 'its author’s access had expired',
    });
  });

  it('R50: a rotation is accepted only when a leave asked for it, from a writer; then the creator’s membership id is known', () => {
    const log = privateVault();
    const rotation = { keyCount: 2, sealedKeys: { 'creator-m': 'ring-o2', 'm-c': 'ring-c2' } };
    expect(log.add(CONTRIBUTOR, { type: 'vault.rotateKeys', rotation }, VAULT)).toEqual({ isAccepted: false, reason: 'no member had left: the log asked for no rotation' });
    expect(log.state.keyCount).toBe(1);
    log.accepted(VIEWER, { type: 'member.leave' }, 'm-v');
    expect(log.state.needsRotation).toBe(true);
    expect(log.add(VIEWER, { type: 'vault.rotateKeys', rotation }, VAULT)).toMatchObject({ isAccepted: false });
    log.accepted(CONTRIBUTOR, { type: 'vault.rotateKeys', rotation }, VAULT);
    expect(log.state).toMatchObject({ keyCount: 2, needsRotation: false });
    // The creator's membership id was bound by the rotation: an owner change names it.
    expect(log.state.members['creator-m']).toMatchObject({ key: OWNER, role: 'OWNER' });
    expect(log.add(OWNER, { type: 'member.changeRole', role: 'VIEWER' }, 'creator-m')).toEqual({ isAccepted: false, reason: 'it takes away the last owner' });
  });

  it('R51: the rings the log handed out are known by digest with their key count; others are not', () => {
    const log = privateVault();
    log.accepted(OWNER, { type: 'member.revoke', rotation: { keyCount: 2, sealedKeys: { 'creator-m': 'ring-o2', 'm-v': 'ring-v2' } } }, 'm-c');
    expect(trustedRingKeyCount(log.state, 'ring-owner')).toBe(1);
    expect(trustedRingKeyCount(log.state, 'ring-v')).toBe(1);
    expect(trustedRingKeyCount(log.state, 'ring-v2')).toBe(2);
    expect(trustedRingKeyCount(log.state, 'ring-o2')).toBe(2);
    expect(trustedRingKeyCount(log.state, 'ring-from-the-server')).toBeUndefined();
    expect(Object.keys(log.state.rings)).toContain(sealedRingDigest('ring-o2'));
    // An invitation must hand out the whole current ring.
    expect(log.add(OWNER, { type: 'member.invite', email: 's@example.com', role: 'VIEWER', memberKey: STRANGER, keys: 'stale', keyCount: 1 }, 'm-s')).toEqual({
      isAccepted: false,
      reason: 'it hands out a ring that is not the vault’s current one',
    });
    expect(trustedRingKeyCount(log.state, 'stale')).toBeUndefined();
  });

  it('R50: content sealed under a key the log had not handed out yet (a reordered log) is refused', () => {
    const log = privateVault();
    expect(log.add(OWNER, { type: 'folder.create', parentId: null, name: { key: 1, c: 'eA' } })).toEqual({
      isAccepted: false,
      reason: 'it is sealed under key 1, which the log had not handed out yet',
    });
  });

  it('R50: the vault is created once, first; an archived vault takes only what gives access up; a deleted one nothing', () => {
    const log = new Log();
    expect(log.add(OWNER, folder())).toEqual({ isAccepted: false, reason: 'the log does not start with the vault’s creation' });
    const again = privateVault();
    expect(again.add(OWNER, { type: 'vault.create', isPublic: true, isCloud: true, name: { clear: 'x' } }, VAULT)).toMatchObject({ isAccepted: false });
    again.accepted(OWNER, { type: 'vault.archive' }, VAULT);
    expect(again.add(OWNER, folder())).toEqual({ isAccepted: false, reason: 'the vault was archived before it' });
    again.accepted(VIEWER, { type: 'member.leave' }, 'm-v');
    again.accepted(OWNER, { type: 'vault.delete' }, VAULT);
    expect(again.add(OWNER, { type: 'vault.restore' }, VAULT)).toEqual({ isAccepted: false, reason: 'the vault was deleted before it' });
  });

  it('R50: a public vault has no rings; its members are judged the same way', () => {
    const log = new Log();
    log.accepted(OWNER, { type: 'vault.create', isPublic: true, isCloud: false, name: { clear: 'Open' } }, VAULT);
    log.accepted(OWNER, { type: 'member.invite', email: 'v@example.com', role: 'VIEWER', memberKey: VIEWER }, 'm-v');
    log.accepted(VIEWER, { type: 'member.accept' }, 'm-v');
    expect(log.add(VIEWER, { type: 'folder.create', parentId: null, name: { clear: 'x' } })).toMatchObject({ isAccepted: false });
    expect(log.state.rings).toEqual({});
  });
});

describe('the signed-out viewer judges a public log with gaps (R67)', () => {
  const entry = (seq: number, author: string, body: OperationBody, objectId = `obj-${seq}`): SequencedOperation => ({
    seq,
    receivedAt: 1_000 + seq,
    op: { id: `op-${seq}`, vaultId: VAULT, objectId, author, createdAt: 1, body, signature: 'x'.repeat(86) },
  });
  const clearFolder = (): OperationBody => ({ type: 'folder.create', parentId: null, name: { clear: 'f' } });

  it('R67: gaps are allowed, a repeat or a step back is refused without moving the cursor, and the creation must come first', () => {
    const state = newVaultLogState();
    expect(judgePublicOperation(state, VAULT, entry(1, OWNER, { type: 'vault.create', isPublic: true, isCloud: true, name: { clear: 'v' } }, VAULT), true)).toEqual({ isAccepted: true });
    // Seq 2 and 3 were left out by the public area (a hidden file, a VIEWER's invitation).
    expect(judgePublicOperation(state, VAULT, entry(4, OWNER, { type: 'member.invite', role: 'CONTRIBUTOR', memberKey: CONTRIBUTOR }, 'm-c'), true)).toEqual({ isAccepted: true });
    expect(judgePublicOperation(state, VAULT, entry(6, CONTRIBUTOR, { type: 'member.accept' }, 'm-c'), true)).toEqual({ isAccepted: true });
    expect(judgePublicOperation(state, VAULT, entry(9, CONTRIBUTOR, clearFolder()), true)).toEqual({ isAccepted: true });
    expect(judgePublicOperation(state, VAULT, entry(9, CONTRIBUTOR, clearFolder()), true)).toEqual({ isAccepted: false, reason: 'the server served operation 9 after 9' });
    expect(judgePublicOperation(state, VAULT, entry(7, OWNER, clearFolder()), true)).toMatchObject({ isAccepted: false });
    expect(state.seq).toBe(9);
    expect(judgePublicOperation(state, VAULT, entry(10, VIEWER, clearFolder()), true)).toEqual({ isAccepted: false, reason: 'its author was not a member of the vault' });
    expect(judgePublicOperation(state, VAULT, entry(11, OWNER, clearFolder()), true)).toEqual({ isAccepted: true });
    expect(state.problem).toEqual({ seq: 9, reason: 'the server served operation 9 after 9' });

    const headless = newVaultLogState();
    expect(judgePublicOperation(headless, VAULT, entry(2, OWNER, clearFolder()), true)).toEqual({ isAccepted: false, reason: 'the log does not start with the vault’s creation' });
    expect(judgePublicOperation(headless, VAULT, entry(3, OWNER, clearFolder()), true)).toMatchObject({ isAccepted: false });
  });
});
