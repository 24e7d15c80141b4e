import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnDb } from './db';
import { deleteWallet, loadWallet, saveWallet } from './walletStore';

let db: CairnDb;
beforeEach(() => {
  db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
});
afterEach(() => db.close());

async function deviceKey() {
  return globalThis.crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

describe('walletStore', () => {
  it('round-trips a non-extractable CryptoKey that still decrypts after storage', async () => {
    // fake-indexeddb stores by structuredClone, which in Node 20 clones a CryptoKey like browsers do.
    const key = await deviceKey();
    const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
    const ciphertext = await globalThis.crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new Uint8Array([1, 2, 3]));
    await saveWallet('acc1', { deviceKey: key, sealed: 'abc' }, db);

    const loaded = await loadWallet('acc1', db);
    expect(loaded?.sealed).toBe('abc');
    expect(loaded?.deviceKey).toBeInstanceOf(CryptoKey);
    expect(loaded?.deviceKey.extractable).toBe(false);
    const plain = await globalThis.crypto.subtle.decrypt({ name: 'AES-GCM', iv }, loaded!.deviceKey, ciphertext);
    expect(new Uint8Array(plain)).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('replaces, isolates accounts and deletes', async () => {
    await saveWallet('acc1', { deviceKey: await deviceKey(), sealed: 'one' }, db);
    await saveWallet('acc1', { deviceKey: await deviceKey(), sealed: 'two' }, db);
    await saveWallet('acc2', { deviceKey: await deviceKey(), sealed: 'other' }, db);
    expect((await loadWallet('acc1', db))?.sealed).toBe('two');
    await deleteWallet('acc1', db);
    expect(await loadWallet('acc1', db)).toBeUndefined();
    expect((await loadWallet('acc2', db))?.sealed).toBe('other');
    expect(await loadWallet('nobody', db)).toBeUndefined();
  });
});
