/**
 * The $U balance on the device (SYNC_SPEC R109, R110): the figure with the highest headSeq wins
 * whatever order reads and socket messages come in, and the served balance is shown as verified
 * only when the served chain replays to it under the ledger key. The API is a fake at the port
 * (ApiClient); the ledger entries are really signed (src/crypto/ledger.ts).
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { addressOf } from '../crypto/address';
import { bytesToHex } from '../crypto/encoding';
import { deriveWalletKeysFromEntropy } from '../crypto/keys';
import { ledgerEntryHash, signTransfer } from '../crypto/ledger';
import { signPayload } from '../crypto/signatures';
import { type ApiClient, NetworkError } from '../platform/apiClient';
import { ApiError } from '../protocol/errors';
import { GENESIS_HASH, type LedgerEntry, rewardSigningPayload } from '../protocol/ledger';
import { TokenSync } from './tokenSync';
import { verifyTokenBalance } from './verifyTokenBalance';

type Answer = unknown | (() => unknown);

function fakeApi(routes: Record<string, Answer>): ApiClient & { calls: string[] } {
  const calls: string[] = [];
  const get = async <S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S>> => {
    calls.push(path);
    const route = Object.keys(routes).find((prefix) => path.startsWith(prefix));
    if (!route) throw new NetworkError('offline');
    const answer = routes[route];
    return schema.parse(typeof answer === 'function' ? (answer as (p: string) => unknown)(path) : answer);
  };
  const refuse = async () => {
    throw new Error('not used');
  };
  return { calls, get, post: refuse, put: refuse, patch: refuse, delete: refuse };
}

async function account(fill: number) {
  const keys = await deriveWalletKeysFromEntropy(new Uint8Array(16).fill(fill));
  return { keys, key: bytesToHex(keys.signingPublicKey), address: await addressOf(keys.signingPublicKey) };
}

/** The server rewards Alice 1 U, Alice sends Bob 0.4 U: Alice holds 0.6 U at seq 2. */
async function ledger() {
  const server = await account(1);
  const alice = await account(2);
  const bob = await account(3);
  const reward = { seq: 1, id: 'reward-1', to: alice.address, amount: '1000000', reason: 'tx-1', prev: GENESIS_HASH, createdAt: 1 };
  const first: LedgerEntry = { ...reward, kind: 'reward', from: null, fromKey: null, signature: await signPayload(server.keys.signingPrivateKey, rewardSigningPayload(reward)) };
  const signed = await signTransfer(alice.keys.signingPrivateKey, { id: 'transfer-1', from: alice.address, fromKey: alice.key, to: bob.address, amount: '400000' });
  const second: LedgerEntry = { ...signed, seq: 2, kind: 'transfer', reason: null, prev: await ledgerEntryHash(first), createdAt: 2 };
  return { server, alice, bob, entries: [first, second], headHash: await ledgerEntryHash(second) };
}

function routesFor(l: Awaited<ReturnType<typeof ledger>>, shown: { balance: string; headSeq: number }, entries: LedgerEntry[] = l.entries) {
  return {
    '/utoken': { address: l.alice.address, balance: shown.balance, headSeq: shown.headSeq, canSend: true },
    '/ledger/entries': (path: string) => {
      const after = Number(new URL(path, 'http://x').searchParams.get('after'));
      return { items: entries.filter((e) => e.seq > after), next: null };
    },
    '/ledger': { serverKey: l.server.key, headSeq: 2, headHash: l.headHash },
  };
}

describe('the $U balance on the device (R109, R110)', () => {
  it('[R109] keeps the figure with the highest headSeq, whatever the order reads and messages arrive in', async () => {
    let served = { address: 'a'.repeat(43), balance: '500', headSeq: 3, canSend: false };
    const sync = new TokenSync(fakeApi({ '/utoken': () => served }), () => undefined);
    expect(sync.current.balance).toBeNull();
    await sync.refresh();
    expect(sync.current).toMatchObject({ balance: '500', headSeq: 3, canSend: false, address: 'a'.repeat(43) });
    sync.receive('900', 7);
    sync.receive('700', 5);
    expect(sync.current).toMatchObject({ balance: '900', headSeq: 7 });
    // A read that raced a newer message does not take the balance back, but its plan answer counts.
    served = { ...served, balance: '600', headSeq: 6, canSend: true };
    await sync.refresh();
    expect(sync.current).toMatchObject({ balance: '900', headSeq: 7, canSend: true });
    // The socket reopened after a lost message: the read brings the balance forward.
    served = { ...served, balance: '1200', headSeq: 9 };
    await sync.refresh();
    expect(sync.current).toMatchObject({ balance: '1200', headSeq: 9 });
  });

  it('[R109] offline, the figure shown stays', async () => {
    const sync = new TokenSync(fakeApi({}), () => undefined);
    sync.receive('42', 1);
    await sync.refresh();
    expect(sync.current).toMatchObject({ balance: '42', headSeq: 1 });
  });

  it('a passwordless session, refused the balance, is not asked again on every socket open', async () => {
    const api = fakeApi({
      '/utoken': () => {
        throw new ApiError('FORBIDDEN', 'Not for airdrop sessions');
      },
    });
    const logged: string[] = [];
    const sync = new TokenSync(api, (message) => logged.push(message));
    await sync.refresh();
    await sync.refresh();
    expect(api.calls).toEqual(['/utoken']);
    expect(logged).toEqual([]);
    expect(sync.current.balance).toBeNull();
  });

  it('[R110] a balance the served chain replays to is verified', async () => {
    const l = await ledger();
    expect(await verifyTokenBalance(fakeApi(routesFor(l, { balance: '600000', headSeq: 2 })))).toEqual({ kind: 'verified', balance: '600000', headSeq: 2 });
    // Read before the transfer: the replay stops at its headSeq.
    expect(await verifyTokenBalance(fakeApi(routesFor(l, { balance: '1000000', headSeq: 1 })))).toMatchObject({ kind: 'verified', balance: '1000000' });
  });

  it('[R110] a figure the chain does not give, a chain cut short, or a forged entry is a mismatch', async () => {
    const l = await ledger();
    expect(await verifyTokenBalance(fakeApi(routesFor(l, { balance: '900000', headSeq: 2 })))).toEqual({
      kind: 'mismatch',
      shown: '900000',
      replayed: '600000',
      headSeq: 2,
      reason: 'figure',
    });
    expect(await verifyTokenBalance(fakeApi(routesFor(l, { balance: '600000', headSeq: 2 }, l.entries.slice(0, 1))))).toMatchObject({
      kind: 'mismatch',
      reason: 'missing-entries',
    });
    const forged = [l.entries[0]!, { ...l.entries[1]!, amount: '100000' }];
    expect(await verifyTokenBalance(fakeApi(routesFor(l, { balance: '900000', headSeq: 2 }, forged)))).toMatchObject({
      kind: 'mismatch',
      reason: 'signature',
    });
  });
});
