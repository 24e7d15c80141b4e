/**
 * R129 whatever the connection: a vault an organisation person creates is shared with the
 * organisation's admins once the server lists it, even when it was made offline or its screen
 * closed before the share ran; an offline share is tried again, a refused creation forgotten.
 */
import { describe, expect, it } from 'vitest';
import { NetworkError } from '../platform/apiClient';
import { ADMIN_SHARE_TTL_MS, queueAdminShare, queuedAdminShares, runAdminShare, shareQueued } from './adminShares';

function memoryStore() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
}

const owned = (vaultId: string, status: 'ACCEPTED' | 'PENDING' = 'ACCEPTED') => ({
  vaultId,
  membership: { id: `m-${vaultId}`, role: 'OWNER' as const, status, keys: null, expiresAt: null, storageAllowance: null, organisationAirdrop: false },
});

describe('vaults queued for the organisation admins', () => {
  it('are shared once the server lists them as the account’s own, and then leave the queue', async () => {
    const store = memoryStore();
    queueAdminShare('me', 'made-offline', 1_000, store);
    queueAdminShare('me', 'still-in-outbox', 1_000, store);
    const shared: string[] = [];
    const share = async (vaultId: string, userId: string) => void shared.push(`${vaultId} by ${userId}`);
    const count = await shareQueued({ accountId: 'me', listed: [owned('made-offline'), owned('someone-elses', 'PENDING')], share, now: 2_000, store, log: () => undefined });
    expect(count).toBe(1);
    expect(shared).toEqual(['made-offline by me']);
    expect(queuedAdminShares('me', store)).toEqual(['still-in-outbox']);
    // Another account's queue is its own.
    expect(queuedAdminShares('someone', store)).toEqual([]);
  });

  it('stay queued when the network fails, and are forgotten when the share fails otherwise', async () => {
    const store = memoryStore();
    queueAdminShare('me', 'v1', 0, store);
    await runAdminShare('me', 'v1', async () => Promise.reject(new NetworkError('offline')), store);
    expect(queuedAdminShares('me', store)).toEqual(['v1']);
    const logged: string[] = [];
    await shareQueued({ accountId: 'me', listed: [owned('v1')], share: async () => Promise.reject(new Error('boom')), now: 1, store, log: (message) => void logged.push(message) });
    expect(queuedAdminShares('me', store)).toEqual([]);
    expect(logged).toEqual(["Vault v1 not shared with the organisation's admins"]);
  });

  it('are forgotten when the server never took the vault for a month', async () => {
    const store = memoryStore();
    queueAdminShare('me', 'refused', 0, store);
    queueAdminShare('me', 'recent', ADMIN_SHARE_TTL_MS, store);
    await shareQueued({ accountId: 'me', listed: [], share: async () => undefined, now: ADMIN_SHARE_TTL_MS + 1, store, log: () => undefined });
    expect(queuedAdminShares('me', store)).toEqual(['recent']);
  });
});
