/**
 * The reader's rules (docs/SYNC_SPEC.md R86) on items in memory: a public vault's signed log in
 * runs, as several wallets could have posted them in any order. The end-to-end test
 * (cairnRestore.test.ts) runs the same reader on a real server's private vault and a real
 * gateway.
 */
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../crypto/encoding';
import { deriveWalletKeysFromEntropy, type WalletKeys } from '../crypto/keys';
import { sealField } from '../crypto/fieldEnvelope';
import { addKey, createKeyRing, sealKeyRing } from '../crypto/keyRing';
import { signOperation } from '../crypto/operations';
import { loadSodium } from '../crypto/sodium';
import { generatePhraseEntropy } from '../crypto/phrase';
import { sha256Hex } from '../crypto/fileChunks';
import type { FileVersion, OperationBody, SequencedOperation } from '../protocol/vaults';
import type { VaultHistoryRun as HistoryRun } from '../protocol/vaultHistory';
import { describeHistoryEnd, readVaultHistory, readVersion, RestoreError, type FileItem, type HistoryItem, type VaultItemSource } from './restoreReader';

const VAULT = 'vaultR86';

async function wallet(): Promise<WalletKeys> {
  return deriveWalletKeysFromEntropy(generatePhraseEntropy());
}

async function signedLog(owner: WalletKeys, bodies: { objectId: string; body: OperationBody; by?: WalletKeys }[]): Promise<SequencedOperation[]> {
  const out: SequencedOperation[] = [];
  for (const [i, { objectId, body, by }] of bodies.entries()) {
    const signer = by ?? owner;
    const author = bytesToHex(signer.signingPublicKey);
    const op = await signOperation(signer.signingPrivateKey, { id: `op${i}-${author.slice(0, 8)}`, vaultId: VAULT, objectId, author, createdAt: 1_000 + i, body });
    out.push({ seq: i + 1, receivedAt: 2_000 + i, op });
  }
  return out;
}

function run(ops: SequencedOperation[]): HistoryRun {
  return { format: 'cairn-vault-history', version: 1, vaultId: VAULT, seqFrom: ops[0]!.seq, seqTo: ops.at(-1)!.seq, ops };
}

interface Posted {
  owner: string;
  data: unknown;
  seqFrom?: number;
  seqTo?: number;
  /** Its block height (R98); null: pending. Unset: mined at height 1. */
  height?: number | null;
}

/** Items in the order given, as a gateway might list them. */
function memorySource(history: Posted[], files: Record<string, Uint8Array[]> = {}): VaultItemSource {
  return {
    label: 'memory',
    async *historyItems(vaultId) {
      if (vaultId !== VAULT) return;
      for (const [i, item] of history.entries()) {
        const data = item.data as HistoryRun;
        const posted: HistoryItem = {
          id: `h${i}`,
          owner: item.owner,
          height: item.height === undefined ? 1 : item.height,
          seqFrom: item.seqFrom ?? data.seqFrom,
          seqTo: item.seqTo ?? data.seqTo,
          read: async () => new TextEncoder().encode(typeof item.data === 'string' ? item.data : JSON.stringify(item.data)),
        };
        yield posted;
      }
    },
    async *fileItems(_, blobId) {
      for (const [i, bytes] of (files[blobId] ?? []).entries()) {
        const item: FileItem = {
          id: `${blobId}#${i}`,
          size: bytes.length,
          open: async () =>
            (async function* () {
              // Odd pieces, so chunks are put together across reads.
              for (let at = 0; at < bytes.length; at += 3) yield bytes.subarray(at, at + 3);
            })(),
        };
        yield item;
      }
    },
  };
}

async function publicVersion(bytes: Uint8Array): Promise<FileVersion> {
  return {
    versionId: 'v1',
    blobId: 'blob1',
    size: bytes.length,
    storedSize: bytes.length,
    chunkSize: 4 * 1024 * 1024,
    chunkCount: 1,
    chunkHashes: [await sha256Hex(bytes)],
    mimeType: { clear: 'text/plain' },
    lastModified: 0,
  };
}

async function publicVault(owner: WalletKeys, bytes: Uint8Array) {
  return signedLog(owner, [
    { objectId: VAULT, body: { type: 'vault.create', isPublic: true, isCloud: false, name: { clear: 'Atlas' } } },
    { objectId: 'f1', body: { type: 'folder.create', parentId: null, name: { clear: 'Maps' } } },
    { objectId: 'n1', body: { type: 'file.create', parentId: 'f1', name: { clear: 'lake.txt' }, version: await publicVersion(bytes) } },
    { objectId: 'f2', body: { type: 'folder.create', parentId: null, name: { clear: 'Old' } } },
    { objectId: 'f2', body: { type: 'node.hide' } },
  ]);
}

async function failure(promise: Promise<unknown>): Promise<RestoreError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof RestoreError)) throw new Error(`expected a RestoreError, got ${String(error)}`);
  return error;
}

describe('[R86] the reader trusts the operations, not the gateway', () => {
  it('chains runs from the creation on and folds the tree; a forged run of another wallet for the same seqs is passed over', async () => {
    const owner = await wallet();
    const ops = await publicVault(owner, new TextEncoder().encode('north shore'));
    const forged = run(ops.slice(2));
    forged.ops[0] = { ...forged.ops[0]!, op: { ...forged.ops[0]!.op, body: { ...forged.ops[0]!.op.body, name: { clear: 'evil.txt' } } as OperationBody } };
    // The forger also replays the genuine first run under their wallet, listed first: the chain
    // then prefers the forger's next run, which must fail and give way to the relay's.
    const source = memorySource([
      { owner: 'forger', data: run(ops.slice(0, 2)) },
      { owner: 'forger', data: forged },
      { owner: 'forger', data: 'not json' },
      { owner: 'relay', data: run(ops.slice(2)) },
      { owner: 'relay', data: run(ops.slice(0, 2)) },
    ]);
    const restored = await readVaultHistory(source, VAULT, owner);
    expect(restored.headSeq).toBe(5);
    expect(restored.state.vault.name).toBe('Atlas');
    const names = [...restored.state.nodes.values()].map((n) => [n.name, n.status]);
    expect(names).toEqual([
      ['Maps', 'ACTIVE'],
      ['lake.txt', 'ACTIVE'],
      ['Old', 'REVOKED'],
    ]);
  });

  it('a run whose tags do not name its seqs, or of another vault, is ignored', async () => {
    const owner = await wallet();
    const ops = await publicVault(owner, new Uint8Array([1]));
    const source = memorySource([
      { owner: 'relay', data: run(ops.slice(0, 2)), seqTo: 3 },
      { owner: 'relay', data: { ...run(ops), vaultId: 'another' } },
    ]);
    expect((await failure(readVaultHistory(source, VAULT, owner))).code).toBe('UNKNOWN_VAULT');
  });

  it('nothing of the vault: UNKNOWN_VAULT; a stranger: WRONG_PHRASE', async () => {
    const owner = await wallet();
    const ops = await publicVault(owner, new Uint8Array([1]));
    const none = await failure(readVaultHistory(memorySource([]), VAULT, owner));
    expect([none.code, none.message]).toEqual(['UNKNOWN_VAULT', `No history of vault ${VAULT} is on memory: check the vault id and the gateway.`]);
    const stranger = await failure(readVaultHistory(memorySource([{ owner: 'relay', data: run(ops) }]), VAULT, await wallet()));
    expect(stranger.code).toBe('WRONG_PHRASE');
  });

  it('the only run of a seq changed: the refused operation is named by its seq', async () => {
    const owner = await wallet();
    const ops = await publicVault(owner, new Uint8Array([1]));
    const changed = run(ops.slice(2));
    changed.ops[1] = { ...changed.ops[1]!, op: { ...changed.ops[1]!.op, objectId: 'other' } };
    const error = await failure(readVaultHistory(memorySource([{ owner: 'relay', data: run(ops.slice(0, 2)) }, { owner: 'relay', data: changed }]), VAULT, owner));
    expect([error.code, error.message]).toEqual(['TAMPERED', `Operation 4 of vault ${VAULT} is refused: its signature does not verify. The history on the network was changed.`]);
  });

  it('an operation by someone who is not a member, signed by them, is refused by the membership rules', async () => {
    const owner = await wallet();
    const intruder = await wallet();
    const ops = await publicVault(owner, new Uint8Array([1]));
    const [theirs] = await signedLog(intruder, [{ objectId: 'x', body: { type: 'folder.create', parentId: null, name: { clear: 'Mine now' } } }]);
    const extra = { ...theirs!, seq: 6 };
    const error = await failure(readVaultHistory(memorySource([{ owner: 'relay', data: run(ops) }, { owner: 'relay', data: run([extra]) }]), VAULT, owner));
    expect(error.message).toBe(`Operation 6 of vault ${VAULT} is refused: its author was not a member of the vault. The history on the network was changed.`);
  });

  it('a run missing in the middle of the chosen wallet\'s runs is an error, not a shorter vault', async () => {
    const owner = await wallet();
    const ops = await publicVault(owner, new Uint8Array([1]));
    const error = await failure(readVaultHistory(memorySource([{ owner: 'relay', data: run(ops.slice(0, 2)) }, { owner: 'relay', data: run(ops.slice(3)) }]), VAULT, owner));
    expect([error.code, error.message]).toEqual(['TAMPERED', `The history of vault ${VAULT} stops at seq 2, but a run from seq 4 exists: a run in between is missing.`]);
  });

  it('a version is read from the first item whose chunks have the signed hashes; none left names the file', async () => {
    const owner = await wallet();
    const bytes = new TextEncoder().encode('north shore of the lake');
    const ops = await publicVault(owner, bytes);
    const wrong = new TextEncoder().encode('south shore of the lake');
    const restored = await readVaultHistory(memorySource([{ owner: 'relay', data: run(ops) }]), VAULT, owner);
    const version = restored.state.versions.get('v1')!;
    const written: Uint8Array[] = [];
    const events: string[] = [];
    const sink = {
      write: async (b: Uint8Array) => void written.push(b),
      discard: async () => {
        events.push('discard');
        written.length = 0;
      },
      finish: async () => void events.push('finish'),
    };
    const source = memorySource([], { blob1: [wrong, new Uint8Array(3), bytes] });
    await readVersion(source, restored, version, 'Maps/lake.txt', sink);
    // The wrong bytes were written, then dropped; the item of the wrong size was never opened.
    expect(events).toEqual(['discard', 'finish']);
    expect(new TextDecoder().decode(Buffer.concat(written))).toBe('north shore of the lake');

    const error = await failure(readVersion(memorySource([], { blob1: [wrong] }), restored, version, 'Maps/lake.txt', sink));
    expect([error.code, error.message]).toEqual(['TAMPERED', 'The file "Maps/lake.txt" has no intact copy on memory (item blob1#0: chunk 1 of 1 does not match its signed hash).']);
  });

  it('a private vault: each member opens the ring the log handed them, the rotated one included; a revoked member cannot restore', async () => {
    const sodium = await loadSodium();
    const [owner, keeper, revoked] = [await wallet(), await wallet(), await wallet()];
    const ring0 = createKeyRing();
    const ring1 = addKey(ring0);
    const seal = (ring: Uint8Array[], who: WalletKeys) => sealKeyRing(sodium, ring, who.encryptionPublicKey);
    const sealed = (key: number, objectId: string, text: string) => sealField(sodium, (key === 0 ? ring0 : ring1)[key]!, key, { vaultId: VAULT, objectId, field: 'name' }, text);
    const hex = (w: WalletKeys) => bytesToHex(w.signingPublicKey);
    const ops = await signedLog(owner, [
      { objectId: VAULT, body: { type: 'vault.create', isPublic: false, isCloud: false, name: sealed(0, VAULT, 'Ledger'), ownerKeys: seal(ring0, owner) } },
      { objectId: 'm-keeper', body: { type: 'member.invite', role: 'CONTRIBUTOR', memberKey: hex(keeper), keys: seal(ring0, keeper), keyCount: 1 } },
      { objectId: 'm-keeper', body: { type: 'member.accept' }, by: keeper },
      { objectId: 'm-revoked', body: { type: 'member.invite', role: 'VIEWER', memberKey: hex(revoked), keys: seal(ring0, revoked), keyCount: 1 } },
      { objectId: 'm-revoked', body: { type: 'member.accept' }, by: revoked },
      { objectId: 'f0', body: { type: 'folder.create', parentId: null, name: sealed(0, 'f0', 'Before') } },
      { objectId: 'm-revoked', body: { type: 'member.revoke', rotation: { keyCount: 2, sealedKeys: { 'm-keeper': seal(ring1, keeper), 'm-owner': seal(ring1, owner) } } } },
      { objectId: 'f1', body: { type: 'folder.create', parentId: null, name: sealed(1, 'f1', 'After the rotation') }, by: keeper },
    ]);
    const source = memorySource([{ owner: 'relay', data: run(ops) }]);
    for (const member of [owner, keeper]) {
      const restored = await readVaultHistory(source, VAULT, member);
      expect(restored.ring.length).toBe(2);
      expect(restored.state.vault.name).toBe('Ledger');
      expect([...restored.state.nodes.values()].map((n) => n.name)).toEqual(['Before', 'After the rotation']);
    }
    const error = await failure(readVaultHistory(source, VAULT, revoked));
    expect([error.code, error.message]).toEqual(['WRONG_PHRASE', `This recovery phrase is not a member of vault ${VAULT}: check the 12 words.`]);
  });
});

describe("[R98] a stranger cannot stop a restore; the vault's own chain changed still stops it", () => {
  /** A run of `count` operations from seq `from`, signed by a wallet that is no member of the vault. */
  async function strangersRun(from: number, count = 1): Promise<HistoryRun> {
    const stranger = await wallet();
    const bodies = Array.from({ length: count }, (_, i) => ({ objectId: `s${i}`, body: { type: 'folder.create', parentId: null, name: { clear: 'Mine now' } } as OperationBody }));
    return run((await signedLog(stranger, bodies)).map((entry, i) => ({ ...entry, seq: from + i })));
  }

  it('[R98] a stranger\'s run at head+1 and one far past it are passed over: the history ends at the last verified seq and says so', async () => {
    const owner = await wallet();
    const ops = await publicVault(owner, new Uint8Array([1]));
    const source = memorySource([
      { owner: 'relay', data: run(ops.slice(0, 2)), height: 10 },
      { owner: 'relay', data: run(ops.slice(2)), height: 11 },
      { owner: 'stranger', data: await strangersRun(6, 2), height: 12 },
      { owner: 'stranger', data: await strangersRun(40), height: null },
    ]);
    const restored = await readVaultHistory(source, VAULT, owner);
    expect(restored.headSeq).toBe(5);
    expect([...restored.state.nodes.values()].map((n) => n.name)).toEqual(['Maps', 'lake.txt', 'Old']);
    expect(restored.end).toEqual({ seq: 5, receivedAt: ops[4]!.receivedAt, passedOver: 2 });
    expect(describeHistoryEnd(restored.end, 'memory')).toBe(
      'The history is restored to seq 5, received 1970-01-01 00:00 UTC, where its signed chain ends: 2 item(s) on memory that claim later operations do not verify as this vault\'s and were passed over.',
    );
    const alone = await readVaultHistory(memorySource([{ owner: 'relay', data: run(ops) }]), VAULT, owner);
    expect(describeHistoryEnd(alone.end, 'memory')).toBe('The history is restored to seq 5, received 1970-01-01 00:00 UTC: its last operation.');
  });

  it('[R98] a forged seq-1 run posted before the real one, and a copy of the real one posted after it, cannot take the chain or stop it', async () => {
    const owner = await wallet();
    const ops = await publicVault(owner, new Uint8Array([1]));
    const forged = run([...ops]);
    forged.ops[1] = { ...forged.ops[1]!, op: { ...forged.ops[1]!.op, body: { ...forged.ops[1]!.op.body, name: { clear: 'Forged' } } as OperationBody } };
    const source = memorySource([
      // Listed first, the longest: the copy of the vault's whole history, posted after the relay's runs...
      { owner: 'forger', data: run(ops), height: 30 },
      // ...so that the forger's own runs after it and past its end would be taken as the vault's.
      { owner: 'forger', data: await strangersRun(6), height: 31 },
      { owner: 'forger', data: await strangersRun(9), height: 31 },
      // Before the relay's first run: a forgery of it (its signatures fail).
      { owner: 'forger', data: forged, height: 5 },
      { owner: 'relay', data: run(ops.slice(2)), height: 21 },
      { owner: 'relay', data: run(ops.slice(0, 2)), height: 20 },
    ]);
    const restored = await readVaultHistory(source, VAULT, owner);
    expect(restored.headSeq).toBe(5);
    expect([...restored.state.nodes.values()].map((n) => n.name)).toEqual(['Maps', 'lake.txt', 'Old']);
    expect(restored.end.passedOver).toBe(2);
  });

  it('[R98] a copy of the vault\'s own operations posted after its end is a replay, passed over, not more history', async () => {
    const owner = await wallet();
    const ops = await publicVault(owner, new Uint8Array([1]));
    // Signed by the owner, so the judge alone would accept them again at seq 6 and 7.
    const replay = run([ops[3]!, ops[1]!].map((entry, i) => ({ ...entry, seq: 6 + i })));
    const restored = await readVaultHistory(memorySource([{ owner: 'relay', data: run(ops) }, { owner: 'replayer', data: replay, height: 2 }]), VAULT, owner);
    expect(restored.headSeq).toBe(5);
    expect(restored.end.passedOver).toBe(1);
  });

  it('[R98] only runs nobody trusted posted claim the creation, and none verifies: no history of the vault', async () => {
    const owner = await wallet();
    const error = await failure(readVaultHistory(memorySource([{ owner: 'stranger', data: await strangersRun(1) }]), VAULT, owner));
    expect([error.code, error.message]).toEqual(['UNKNOWN_VAULT', `No history of vault ${VAULT} on memory verifies from its creation: check the vault id and the gateway.`]);
  });

  it('[R98] a run of the wallet whose runs the chain took, changed, is still an error naming its operation, whatever strangers posted', async () => {
    const owner = await wallet();
    const ops = await publicVault(owner, new Uint8Array([1]));
    const changed = run(ops.slice(2));
    changed.ops[0] = { ...changed.ops[0]!, op: { ...changed.ops[0]!.op, createdAt: 1 } };
    const source = memorySource([
      { owner: 'relay', data: run(ops.slice(0, 2)), height: 1 },
      { owner: 'stranger', data: await strangersRun(3), height: 2 },
      { owner: 'relay', data: changed, height: 3 },
    ]);
    const error = await failure(readVaultHistory(source, VAULT, owner));
    expect([error.code, error.message]).toEqual(['TAMPERED', `Operation 3 of vault ${VAULT} is refused: its signature does not verify. The history on the network was changed.`]);
  });
});
