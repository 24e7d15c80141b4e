/**
 * Chat through the whole path (docs/SYNC_SPEC.md R22-R24): the REAL server on a temp SQLite
 * DATA_DIR and the REAL crypto API. One device posts and reacts, offline first (shown at once,
 * pending) and then online; a second device of the same user pulls, opens and shows the same
 * messages and reactions, and a removed reaction goes on both.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createCryptoApi } from '../../workers/crypto/createCryptoApi';
import { createTransferApi } from '../../workers/transfer/createTransferApi';
import { reactionChips } from '../domain/memoRules';
import { createApiClient, type FetchLike } from '../platform/apiClient';
import { CairnDb } from '../storage/db';
import { getLatestMemos } from '../storage/memoStore';
import { startSync, stopSync } from './index';
import { MemoInputError, postMemo, toggleReaction } from './memoActions';
import { SyncClient } from './SyncClient';
import { signedInServer } from './testing/realServer';
import * as actions from './vaultActions';

const real = signedInServer(() => stopSync());

async function device(isOffline: () => boolean = () => false) {
  const crypto = createCryptoApi();
  await crypto.loadPendingWallet(real.user.phrase.split(' '));
  await crypto.activatePendingWallet();
  const inner = real.fetch();
  const fetchLike = (async (input: string | URL | Request, init?: RequestInit) => {
    if (isOffline()) throw new TypeError('Failed to fetch');
    return inner(input, init);
  }) as typeof fetch;
  const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  return { db, crypto, api: createApiClient({ fetch: fetchLike as FetchLike }), transfer: createTransferApi({ fetch: fetchLike }) };
}

describe('chat against the real server', () => {
  it('[R22][R23] a message and reactions queued offline show at once, then reach another device; a removed reaction goes', async () => {
    let offline = false;
    const a = await device(() => offline);
    const client = startSync(real.me, { db: a.db, api: a.api, crypto: a.crypto, transfer: a.transfer, log: () => {} }, { pollIntervalMs: 0 });
    const vaultId = await actions.createVault({ title: 'Team', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
    await client.syncNow();

    offline = true;
    const memoId = await postMemo(vaultId, '  First line\nsecond line  ');
    await toggleReaction(vaultId, memoId, '👍');
    await toggleReaction(vaultId, memoId, '🎉');
    const pending = await getLatestMemos(a.db, real.userId, vaultId, 25);
    expect(pending.memos).toHaveLength(1);
    expect(pending.memos[0]).toMatchObject({ text: 'First line\nsecond line', authorKey: real.me.publicSigningKey, rejection: null });
    expect(pending.memos[0]!.pendingOpIds).toHaveLength(3);
    expect(reactionChips(pending.memos[0]!.reactions, real.me.publicSigningKey)).toEqual([
      { emoji: '👍', count: 1, isMine: true, isPending: true },
      { emoji: '🎉', count: 1, isMine: true, isPending: true },
    ]);

    offline = false;
    await client.syncNow();
    expect(await a.db.outbox.count()).toBe(0);
    const [sent] = (await getLatestMemos(a.db, real.userId, vaultId, 25)).memos;
    expect(sent!.pendingOpIds).toEqual([]);

    const b = await device();
    const other = new SyncClient({ db: b.db, api: b.api, crypto: b.crypto, transfer: b.transfer, log: () => {} }, { pollIntervalMs: 0 });
    other.start(real.userId, real.me);
    await other.syncNow();
    const [seen] = (await getLatestMemos(b.db, real.userId, vaultId, 25)).memos;
    expect(seen).toMatchObject({ memoId, text: 'First line\nsecond line' });
    expect(reactionChips(seen!.reactions, real.me.publicSigningKey).map((c) => [c.emoji, c.count, c.isMine])).toEqual([
      ['👍', 1, true],
      ['🎉', 1, true],
    ]);

    // Clicking one's own reaction removes it, here and on the other device.
    expect(await toggleReaction(vaultId, memoId, '👍')).toBe(false);
    await client.syncNow();
    await other.syncNow();
    for (const db of [a.db, b.db]) {
      const [memo] = (await getLatestMemos(db, real.userId, vaultId, 25)).memos;
      expect(reactionChips(memo!.reactions, real.me.publicSigningKey).map((c) => c.emoji)).toEqual(['🎉']);
    }
    other.stop();
    stopSync();
  }, 60_000);

  it('pages: the newest 25 oldest first, and whether older ones exist', async () => {
    const a = await device();
    startSync(real.me, { db: a.db, api: a.api, crypto: a.crypto, transfer: a.transfer, log: () => {} }, { pollIntervalMs: 0 });
    const vaultId = await actions.createVault({ title: 'Busy', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
    for (let i = 1; i <= 27; i++) await postMemo(vaultId, `Message ${i}`);
    const page = await getLatestMemos(a.db, real.userId, vaultId, 25);
    expect(page.hasOlder).toBe(true);
    expect(page.memos.map((m) => m.text)).toEqual(Array.from({ length: 25 }, (_, i) => `Message ${i + 3}`));
    const all = await getLatestMemos(a.db, real.userId, vaultId, 50);
    expect(all.hasOlder).toBe(false);
    expect(all.memos).toHaveLength(27);
    stopSync();
  }, 60_000);

  it('refuses empty messages and public vaults before queuing anything', async () => {
    const a = await device();
    const client = startSync(real.me, { db: a.db, api: a.api, crypto: a.crypto, transfer: a.transfer, log: () => {} }, { pollIntervalMs: 0 });
    const privateId = await actions.createVault({ title: 'Private', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
    const publicId = await actions.createVault({ title: 'Public', description: '', tags: [], terms: '', isPublic: true, isCloud: true });
    await client.syncNow();
    await expect(postMemo(privateId, ' \n ')).rejects.toMatchObject({ code: 'EMPTY' });
    await expect(postMemo(publicId, 'Hello')).rejects.toBeInstanceOf(MemoInputError);
    expect(await a.db.outbox.count()).toBe(0);
    expect(await a.db.memos.where('[accountId+vaultId]').anyOf([real.userId, privateId], [real.userId, publicId]).count()).toBe(0);
    stopSync();
  }, 60_000);
});
