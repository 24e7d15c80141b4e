/**
 * The device hands a vault's verified history to a server that does not have it (SYNC_SPEC R91),
 * through the app's own API client, against the real server.
 */
import { describe, expect, it } from 'vitest';
import { createKeyRing } from '../crypto/keyRing';
import { sealNewest, sealRingTo } from '../../server/testing/members';
import { newId, VaultActor } from '../../server/testing/vaults';
import { ApiClient as ServerTestClient } from '../../server/testing/ApiClient';
import { createApiClient, type FetchLike } from '../platform/apiClient';
import { ApiError } from '../protocol/errors';
import type { HistoryEntry, VaultHistoryRun } from '../protocol/vaultHistory';
import { PullResponse } from '../protocol/vaults';
import { importVaultHistory, refusedSeqOf } from './importVaultHistory';
import { signedInServer } from './testing/realServer';

const server = signedInServer(() => undefined);

/** A history signed by the server's user, as read from another server: vault.create and `folders` folders. */
async function historyOf(folders: number): Promise<{ vaultId: string; entries: HistoryEntry[] }> {
  const author = new VaultActor(new ServerTestClient(server.app), server.user, server.token, server.userId);
  const vaultId = newId();
  const ring = createKeyRing();
  const receivedAt = Date.now() - 60_000;
  const ops = [
    await author.sign(vaultId, vaultId, {
      type: 'vault.create',
      isPublic: false,
      isCloud: true,
      name: await sealNewest(ring, { vaultId, objectId: vaultId, field: 'name' }, 'Restored'),
      ownerKeys: await sealRingTo(ring, server.user.publicEncryptionKey),
    }),
  ];
  for (let i = 0; i < folders; i += 1) {
    const folderId = newId();
    ops.push(await author.sign(vaultId, folderId, { type: 'folder.create', parentId: null, name: await sealNewest(ring, { vaultId, objectId: folderId, field: 'name' }, `Folder ${i}`) }));
  }
  return { vaultId, entries: ops.map((op, i) => ({ seq: i + 1, receivedAt: receivedAt + i, op })) };
}

function runsOf(vaultId: string, entries: HistoryEntry[], size: number): VaultHistoryRun[] {
  const runs: VaultHistoryRun[] = [];
  for (let i = 0; i < entries.length; i += size) {
    const ops = entries.slice(i, i + size);
    runs.push({ format: 'cairn-vault-history', version: 1, vaultId, seqFrom: ops[0]!.seq, seqTo: ops[ops.length - 1]!.seq, ops });
  }
  return runs;
}

describe('importVaultHistory', () => {
  it('[R91] sends the runs in order, the last flagged, and the server serves the same log', async () => {
    const api = createApiClient({ fetch: server.fetch() as FetchLike });
    const { vaultId, entries } = await historyOf(4);
    const progress: number[] = [];
    const answer = await importVaultHistory(api, vaultId, runsOf(vaultId, entries, 2), (head) => progress.push(head));
    expect(answer).toEqual({ vaultId, headSeq: 5, status: 'DONE' });
    expect(progress).toEqual([2, 4, 5]);
    const pulled = await api.get(`/vaults/${vaultId}/ops?after=0`, PullResponse);
    expect(pulled.ops.map(({ seq, op }) => ({ seq, op }))).toEqual(entries.map(({ seq, op }) => ({ seq, op })));
  });

  it('[R91] a tampered operation rejects with the seq it names, and the vault is not on the server', async () => {
    const api = createApiClient({ fetch: server.fetch() as FetchLike });
    const { vaultId, entries } = await historyOf(3);
    entries[2] = { ...entries[2]!, op: { ...entries[2]!.op, objectId: newId() } };
    const error = await importVaultHistory(api, vaultId, runsOf(vaultId, entries, 2)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('INVALID_SIGNATURE');
    expect(refusedSeqOf(error as ApiError)).toBe(3);
    await expect(api.get(`/vaults/${vaultId}/ops?after=0`, PullResponse)).rejects.toBeInstanceOf(ApiError);
  });
});
