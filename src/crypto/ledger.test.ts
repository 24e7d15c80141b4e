import { describe, expect, it } from 'vitest';
import vector from '../../tests/fixtures/ledger.json';
import { canonicalJson } from '../protocol/canonical';
import { transferSigningPayload } from '../protocol/ledger';
import { phraseToEntropy } from './phrase';
import { GENESIS_HASH, type LedgerEntry, rewardSigningPayload } from '../protocol/ledger';
import { addressOf } from './address';
import { bytesToHex } from './encoding';
import { deriveWalletKeysFromEntropy } from './keys';
import { ledgerEntryHash, replayLedger, signClaim, signTransfer } from './ledger';
import { signPayload } from './signatures';

async function account(fill: number) {
  const keys = await deriveWalletKeysFromEntropy(new Uint8Array(16).fill(fill));
  return { keys, key: bytesToHex(keys.signingPublicKey), address: await addressOf(keys.signingPublicKey) };
}

/** A small ledger: the server rewards Alice 1 U, Alice sends Bob 0.4 U. */
async function fixture() {
  const server = await account(1);
  const alice = await account(2);
  const bob = await account(3);
  const entries: LedgerEntry[] = [];
  let prev = GENESIS_HASH;
  async function reward(to: string, amount: string, reason: string): Promise<LedgerEntry> {
    const placed = { seq: entries.length + 1, id: `reward-${reason}`, to, amount, reason, prev, createdAt: 1_700_000_000_000 + entries.length };
    const entry: LedgerEntry = { ...placed, kind: 'reward', from: null, fromKey: null, signature: await signPayload(server.keys.signingPrivateKey, rewardSigningPayload(placed)) };
    return push(entry);
  }
  async function transfer(from: typeof alice, to: string, amount: string, id: string): Promise<LedgerEntry> {
    const signed = await signTransfer(from.keys.signingPrivateKey, { id, from: from.address, fromKey: from.key, to, amount });
    return push({ seq: entries.length + 1, id, kind: 'transfer', from: signed.from, fromKey: signed.fromKey, to, amount, reason: null, prev, createdAt: 1_700_000_000_000 + entries.length, signature: signed.signature });
  }
  async function push(entry: LedgerEntry): Promise<LedgerEntry> {
    entries.push(entry);
    prev = await ledgerEntryHash(entry);
    return entry;
  }
  await reward(alice.address, '1000000', 'tx-1');
  await transfer(alice, bob.address, '400000', 'transfer-1');
  return { server, alice, bob, entries, reward, transfer };
}

describe('replayLedger (R105, R106)', () => {
  it('R106: balances are the replay of signed, chained entries', async () => {
    const { server, alice, bob, entries } = await fixture();
    const replay = await replayLedger(entries, { serverKey: server.key });
    expect(replay.bad).toBeNull();
    expect(replay.headSeq).toBe(2);
    expect(replay.headHash).toBe(await ledgerEntryHash(entries[1]!));
    expect(replay.balances.get(alice.address)).toBe(600000n);
    expect(replay.balances.get(bob.address)).toBe(400000n);
  });

  it('R106: a changed amount breaks the signature; the balances stop before it', async () => {
    const { server, alice, entries } = await fixture();
    const forged = [entries[0]!, { ...entries[1]!, amount: '900000' }];
    const replay = await replayLedger(forged, { serverKey: server.key });
    expect(replay.bad).toEqual({ seq: 2, id: 'transfer-1', fault: 'signature' });
    expect(replay.balances.get(alice.address)).toBe(1000000n);
    const inflated = [{ ...entries[0]!, amount: '5000000' }];
    expect((await replayLedger(inflated, { serverKey: server.key })).bad?.fault).toBe('signature');
  });

  it("R106: a reward signed by another key, or a transfer signed by someone else's key, does not replay", async () => {
    const { server, alice, bob, entries } = await fixture();
    // The reward is right, but the client was told another server key.
    expect((await replayLedger(entries, { serverKey: alice.key })).bad).toEqual({ seq: 1, id: 'reward-tx-1', fault: 'signature' });
    // Bob signs a transfer out of Alice's address with his own key.
    const byBob = await signTransfer(bob.keys.signingPrivateKey, { id: 'steal', from: alice.address, fromKey: bob.key, to: bob.address, amount: '1' });
    const steal: LedgerEntry = { ...byBob, seq: 3, kind: 'transfer', reason: null, prev: await ledgerEntryHash(entries[1]!), createdAt: 1 };
    expect((await replayLedger([...entries, steal], { serverKey: server.key })).bad).toEqual({ seq: 3, id: 'steal', fault: 'sender' });
    // Bob's key with Alice's key named: the signature is not hers.
    const named: LedgerEntry = { ...steal, fromKey: alice.key };
    expect((await replayLedger([...entries, named], { serverKey: server.key })).bad?.fault).toBe('signature');
  });

  it('R106: a tampered chain (an entry removed, reordered or its prev changed) does not replay', async () => {
    const { server, entries, transfer, alice, bob } = await fixture();
    await transfer(alice, bob.address, '1', 'transfer-2');
    expect((await replayLedger(entries, { serverKey: server.key })).bad).toBeNull();
    expect((await replayLedger([entries[0]!, entries[2]!], { serverKey: server.key })).bad?.fault).toBe('seq');
    expect((await replayLedger([entries[0]!, { ...entries[2]!, seq: 2 }], { serverKey: server.key })).bad?.fault).toBe('chain');
    expect((await replayLedger([entries[1]!, entries[0]!], { serverKey: server.key })).bad?.fault).toBe('seq');
    expect((await replayLedger([{ ...entries[0]!, prev: 'f'.repeat(64) }], { serverKey: server.key })).bad?.fault).toBe('chain');
  });

  it('R107: a replayed transfer (its id again, re-placed in the chain) and a second reward for one upload do not replay', async () => {
    const { server, alice, entries } = await fixture();
    const again: LedgerEntry = { ...entries[1]!, seq: 3, prev: await ledgerEntryHash(entries[1]!) };
    const replay = await replayLedger([...entries, again], { serverKey: server.key });
    expect(replay.bad).toEqual({ seq: 3, id: 'transfer-1', fault: 'duplicate-id' });
    expect(replay.balances.get(alice.address)).toBe(600000n);
    // The server's own key signing a second reward for the same upload, under a new id.
    const second = await fixture();
    await second.reward(second.alice.address, '1', 'tx-1');
    expect((await replayLedger(second.entries, { serverKey: second.server.key })).bad).toEqual({ seq: 3, id: 'reward-tx-1', fault: 'duplicate-id' });
    second.entries.pop();
    const placed = { seq: 3, id: 'reward-again', to: second.alice.address, amount: '1', reason: 'tx-1', prev: await ledgerEntryHash(second.entries[1]!), createdAt: 1 };
    const again2: LedgerEntry = { ...placed, kind: 'reward', from: null, fromKey: null, signature: await signPayload(second.server.keys.signingPrivateKey, rewardSigningPayload(placed)) };
    expect((await replayLedger([...second.entries, again2], { serverKey: second.server.key })).bad).toEqual({ seq: 3, id: 'reward-again', fault: 'duplicate-reason' });
  });

  it('R108: a transfer of more than the sender holds does not replay', async () => {
    const { server, alice, bob, entries, transfer } = await fixture();
    await transfer(alice, bob.address, '600001', 'too-much');
    const replay = await replayLedger(entries, { serverKey: server.key });
    expect(replay.bad).toEqual({ seq: 3, id: 'too-much', fault: 'overdraw' });
    expect(replay.balances.get(alice.address)).toBe(600000n);
  });

  it('replays from a checkpoint (how the server checks one new entry) and refuses malformed input without throwing', async () => {
    const { server, alice, bob, entries } = await fixture();
    const from = { seq: 1, hash: await ledgerEntryHash(entries[0]!), balances: new Map([[alice.address, 1000000n]]) };
    const replay = await replayLedger([entries[1]!], { serverKey: server.key, from });
    expect(replay.bad).toBeNull();
    expect(replay.balances.get(bob.address)).toBe(400000n);
    const poorer = { ...from, balances: new Map([[alice.address, 10n]]) };
    expect((await replayLedger([entries[1]!], { serverKey: server.key, from: poorer })).bad?.fault).toBe('overdraw');
    for (const junk of [null, 7, {}, { ...entries[1]!, amount: '-5' }, { ...entries[1]!, amount: '01' }, { ...entries[1]!, extra: 1 }, { ...entries[0]!, reason: null }]) {
      expect((await replayLedger([junk], { serverKey: server.key })).bad?.fault).toBe('malformed');
    }
  });
});

describe('claims in the ledger (R120)', () => {
  /** An outside Arweave address: 43 characters, no Cairn account's. */
  const OUTSIDE = 'A'.repeat(43);

  it('R120: a claim signed by its sender takes the amount out of the ledger, credits nobody, and cannot be replayed or passed off as a transfer', async () => {
    const { server, alice, bob, entries } = await fixture();
    const signed = await signClaim(alice.keys.signingPrivateKey, { id: 'claim-1', from: alice.address, fromKey: alice.key, to: OUTSIDE, amount: '250000' });
    const claim: LedgerEntry = { ...signed, seq: 3, kind: 'claim', reason: null, prev: await ledgerEntryHash(entries[1]!), createdAt: 5 };
    const replay = await replayLedger([...entries, claim], { serverKey: server.key });
    expect(replay.bad).toBeNull();
    expect(replay.balances.get(alice.address)).toBe(350000n);
    expect(replay.balances.get(OUTSIDE)).toBeUndefined();
    expect(replay.balances.get(bob.address)).toBe(400000n);

    // The same claim again (its id), re-placed after itself.
    const again: LedgerEntry = { ...claim, seq: 4, prev: await ledgerEntryHash(claim) };
    expect((await replayLedger([...entries, claim, again], { serverKey: server.key })).bad).toEqual({ seq: 4, id: 'claim-1', fault: 'duplicate-id' });
    // A transfer's signature relabelled as a claim (or a claim's as a transfer) does not verify.
    const transferSig = await signTransfer(alice.keys.signingPrivateKey, { id: 'x', from: alice.address, fromKey: alice.key, to: OUTSIDE, amount: '1' });
    const relabelled: LedgerEntry = { ...transferSig, seq: 3, kind: 'claim', reason: null, prev: claim.prev, createdAt: 5 };
    expect((await replayLedger([...entries, relabelled], { serverKey: server.key })).bad?.fault).toBe('signature');
    expect((await replayLedger([...entries, { ...claim, kind: 'transfer' }], { serverKey: server.key })).bad?.fault).toBe('signature');
    // Bob claiming out of Alice's address with his key; a claim of more than Alice holds.
    const byBob = await signClaim(bob.keys.signingPrivateKey, { id: 'steal', from: alice.address, fromKey: bob.key, to: OUTSIDE, amount: '1' });
    expect((await replayLedger([...entries, { ...byBob, seq: 3, kind: 'claim', reason: null, prev: claim.prev, createdAt: 5 }], { serverKey: server.key })).bad?.fault).toBe('sender');
    const tooMuch = await signClaim(alice.keys.signingPrivateKey, { id: 'big', from: alice.address, fromKey: alice.key, to: OUTSIDE, amount: '600001' });
    expect((await replayLedger([...entries, { ...tooMuch, seq: 3, kind: 'claim', reason: null, prev: claim.prev, createdAt: 5 }], { serverKey: server.key })).bad?.fault).toBe('overdraw');
  });
});

describe('the ledger format vector (tests/fixtures/ledger.json)', () => {
  it('R105: the client signs and hashes exactly what the vector, made with OpenSSL, holds, and replays it to its balances', async () => {
    const sender = await deriveWalletKeysFromEntropy(phraseToEntropy(vector.phrase));
    expect(await addressOf(sender.signingPublicKey)).toBe(vector.senderAddress);
    const transfer = vector.entries[1]!;
    const unsigned = { id: transfer.id, from: transfer.from!, fromKey: transfer.fromKey!, to: transfer.to, amount: transfer.amount };
    expect(canonicalJson(transferSigningPayload(unsigned))).toBe(vector.transferSigningCanonical);
    expect((await signTransfer(sender.signingPrivateKey, unsigned)).signature).toBe(transfer.signature);
    const entries = vector.entries as LedgerEntry[];
    expect(await Promise.all(entries.map(ledgerEntryHash))).toEqual(vector.hashes);
    for (const implementation of ['libsodium', 'webcrypto'] as const) {
      const replay = await replayLedger(entries, { serverKey: vector.serverKey, implementation });
      expect(replay.bad).toBeNull();
      expect(Object.fromEntries([...replay.balances].map(([address, balance]) => [address, String(balance)]))).toEqual(vector.balances);
      expect(replay.headHash).toBe(vector.hashes[1]);
    }
  });
});
