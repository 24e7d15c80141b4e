/**
 * The app's judging of a restore in the crypto worker (docs/SYNC_SPEC.md R96, R98), on history
 * items as the app hands them over after reading them through its server: with their owners and
 * block heights. The full path through a real server and arlocal is src/network/restoreInApp.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../src/crypto/encoding';
import { deriveWalletKeysFromEntropy, type WalletKeys } from '../../src/crypto/keys';
import { signOperation } from '../../src/crypto/operations';
import { generatePhraseEntropy } from '../../src/crypto/phrase';
import type { VaultHistoryRun } from '../../src/protocol/vaultHistory';
import type { OperationBody, SequencedOperation } from '../../src/protocol/vaults';
import type { RestoreHistoryItem } from './CryptoApi';
import { planRestore } from './restoreJudge';

const VAULT = 'vaultR98';

async function wallet(): Promise<WalletKeys> {
  return deriveWalletKeysFromEntropy(generatePhraseEntropy());
}

/** `bodies` signed by `signer`, as seqs `from`, `from + 1`, … */
async function signed(signer: WalletKeys, from: number, bodies: { objectId: string; body: OperationBody }[]): Promise<SequencedOperation[]> {
  const author = bytesToHex(signer.signingPublicKey);
  const out: SequencedOperation[] = [];
  for (const [i, { objectId, body }] of bodies.entries()) {
    const op = await signOperation(signer.signingPrivateKey, { id: `op-${author.slice(0, 8)}-${from + i}`, vaultId: VAULT, objectId, author, createdAt: 1_000 + i, body });
    out.push({ seq: from + i, receivedAt: Date.UTC(2026, 10, 27, 9, 30) + i, op });
  }
  return out;
}

let itemCount = 0;
function item(owner: string, height: number | null, ops: SequencedOperation[]): RestoreHistoryItem {
  const run: VaultHistoryRun = { format: 'cairn-vault-history', version: 1, vaultId: VAULT, seqFrom: ops[0]!.seq, seqTo: ops.at(-1)!.seq, ops };
  itemCount += 1;
  return { id: `item${itemCount}`, owner, height, seqFrom: run.seqFrom, seqTo: run.seqTo, data: new TextEncoder().encode(JSON.stringify(run)) };
}

describe('[R98] the app judges a restore as the command line does', () => {
  it('[R98] a forger\'s longer copy posted later and strangers\' runs after the head neither take nor stop the restore; the plan says where the history ends', async () => {
    const owner = await wallet();
    const ops = await signed(owner, 1, [
      { objectId: VAULT, body: { type: 'vault.create', isPublic: true, isCloud: false, name: { clear: 'Atlas' } } },
      { objectId: 'f1', body: { type: 'folder.create', parentId: null, name: { clear: 'Maps' } } },
      { objectId: 'f2', body: { type: 'folder.create', parentId: null, name: { clear: 'Logs' } } },
    ]);
    const strangers = await signed(await wallet(), 4, [{ objectId: 'x', body: { type: 'folder.create', parentId: null, name: { clear: 'Mine now' } } }]);
    const farOut = await signed(await wallet(), 12, [{ objectId: 'y', body: { type: 'folder.create', parentId: null, name: { clear: 'Mine too' } } }]);
    const items = [
      // As a gateway lists newest first: the forger's, then the relay's.
      item('forger', 40, ops),
      item('forger', 41, strangers),
      item('forger', null, farOut),
      item('relay', 20, ops.slice(1)),
      item('relay', 19, ops.slice(0, 1)),
    ];
    const plan = await planRestore(owner, VAULT, items, "this server's gateway");
    expect(plan.headSeq).toBe(3);
    expect(plan.ops.map((entry) => entry.op.id)).toEqual(ops.map((entry) => entry.op.id));
    expect(plan.counts.folders).toBe(2);
    expect(plan.end).toEqual({ seq: 3, receivedAt: ops[2]!.receivedAt, passedOver: 2 });
    expect(plan.endNotice).toBe(
      "The history is restored to seq 3, received 2026-11-27 09:30 UTC, where its signed chain ends: 2 item(s) on this server's gateway that claim later operations do not verify as this vault's and were passed over.",
    );
  });
});
