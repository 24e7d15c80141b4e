import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import walletVectors from '../../tests/fixtures/wallet-keys.json';
import { loadOpaque } from '../../src/crypto/opaque';
import { verifyPayload } from '../../src/crypto/signatures';
import type { CryptoApi } from './CryptoApi';
import { createCryptoApi, HANDLE_TTL_MS } from './createCryptoApi';

const REFERENCE = walletVectors.vectors[0]!;

/** The server half of OPAQUE, with the real @serenity-kit/opaque server functions. */
async function createOpaqueServer() {
  const { server } = await loadOpaque();
  const serverSetup = server.createSetup();
  const records = new Map<string, string>();
  return {
    registrationResponse(email: string, registrationRequest: string) {
      return server.createRegistrationResponse({ serverSetup, userIdentifier: email, registrationRequest }).registrationResponse;
    },
    saveRecord(email: string, registrationRecord: string) {
      records.set(email, registrationRecord);
    },
    startLogin(email: string, startLoginRequest: string) {
      // Unknown e-mails get a fake record (registrationRecord null), as the real server does.
      return server.startLogin({ serverSetup, userIdentifier: email, registrationRecord: records.get(email) ?? null, startLoginRequest });
    },
    finishLogin(serverLoginState: string, finishLoginRequest: string) {
      return server.finishLogin({ serverLoginState, finishLoginRequest }).sessionKey;
    },
  };
}
type OpaqueServer = Awaited<ReturnType<typeof createOpaqueServer>>;

async function signUp(api: CryptoApi, server: OpaqueServer, email: string, password: string) {
  const { words, wallet } = await api.createPendingWallet();
  const { handle, registrationRequest } = await api.startRegistration(password);
  const registrationResponse = server.registrationResponse(email, registrationRequest);
  const { registrationRecord, encBackupPhrase } = await api.finishRegistration(handle, registrationResponse, 'pending');
  server.saveRecord(email, registrationRecord);
  return { words, wallet, encBackupPhrase };
}

/** Client and server sides of an OPAQUE login; the handle (or null for a refused password). */
async function logIn(api: CryptoApi, server: OpaqueServer, email: string, password: string) {
  const { handle, startLoginRequest } = await api.startLogin(password);
  const { serverLoginState, loginResponse } = server.startLogin(email, startLoginRequest);
  const finished = await api.finishLogin(handle, loginResponse);
  if (!finished) return null;
  expect(server.finishLogin(serverLoginState, finished.finishLoginRequest)).toMatch(/^[A-Za-z0-9_-]+$/);
  return handle;
}

describe('createCryptoApi: sign-up and login with OPAQUE', () => {
  it('registers, logs in on a new device, unlocks the same wallet and reveals the phrase', async () => {
    const server = await createOpaqueServer();
    const device1 = createCryptoApi();
    await device1.ready();
    const { words, wallet, encBackupPhrase } = await signUp(device1, server, 'ada@example.com', 'correct horse battery');
    expect(words).toHaveLength(12);
    expect(await device1.getPendingWords()).toEqual(words);
    expect(wallet.address).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(wallet.publicSigningKey).toMatch(/^[0-9a-f]{64}$/);
    expect(wallet.publicEncryptionKey).toMatch(/^[0-9a-f]{64}$/);
    expect(encBackupPhrase).toMatch(/^[A-Za-z0-9_-]{1,256}$/);

    // The sign-up request is signed by the pending wallet before it becomes active.
    const signup = { purpose: 'signup', email: 'ada@example.com', address: wallet.address, encBackupPhrase };
    const signature = await device1.signPayload(signup, true);
    expect(await verifyPayload(wallet.publicSigningKey, signup, signature)).toBe(true);
    expect(await device1.activatePendingWallet()).toEqual(wallet);
    expect(await device1.getWallet()).toEqual(wallet);
    expect(await device1.getPendingWords()).toBeNull();

    const device2 = createCryptoApi();
    expect(await device2.getWallet()).toBeNull();
    const handle = await logIn(device2, server, 'ada@example.com', 'correct horse battery');
    expect(handle).not.toBeNull();
    expect(await device2.unlockWallet(handle!, encBackupPhrase, wallet)).toEqual(wallet);
    expect(await device2.getWallet()).toEqual(wallet);
    const payload = { purpose: 'delete-account', userId: 'u1', signedAt: 1 };
    expect(await verifyPayload(wallet.publicSigningKey, payload, await device2.signPayload(payload))).toBe(true);

    const revealHandle = await logIn(device2, server, 'ada@example.com', 'correct horse battery');
    expect(await device2.revealPhrase(revealHandle!, encBackupPhrase)).toEqual(words);
  });

  it('finishLogin answers null for a wrong password and for an unknown e-mail', async () => {
    const server = await createOpaqueServer();
    const api = createCryptoApi();
    const { encBackupPhrase, wallet } = await signUp(api, server, 'ada@example.com', 'right password');
    expect(await logIn(api, server, 'ada@example.com', 'wrong password')).toBeNull();
    expect(await logIn(api, server, 'nobody@example.com', 'right password')).toBeNull();

    // A refused login leaves no export key behind.
    const { handle, startLoginRequest } = await api.startLogin('wrong password');
    expect(await api.finishLogin(handle, server.startLogin('ada@example.com', startLoginRequest).loginResponse)).toBeNull();
    await expect(api.unlockWallet(handle, encBackupPhrase, wallet)).rejects.toThrow('HANDLE_EXPIRED');
  });

  it('unlockWallet refuses keys that do not match the account (USER_NOT_INITIALIZED) and bad blobs (BAD_BACKUP)', async () => {
    const server = await createOpaqueServer();
    const api = createCryptoApi();
    const { encBackupPhrase, wallet } = await signUp(api, server, 'ada@example.com', 'pw one two three');
    await api.clearPendingWallet();

    const someoneElse = { ...wallet, publicEncryptionKey: REFERENCE.publicEncryptionKey };
    const h1 = await logIn(api, server, 'ada@example.com', 'pw one two three');
    await expect(api.unlockWallet(h1!, encBackupPhrase, someoneElse)).rejects.toThrow('USER_NOT_INITIALIZED');
    expect(await api.getWallet()).toBeNull();

    const h2 = await logIn(api, server, 'ada@example.com', 'pw one two three');
    const tampered = `${encBackupPhrase.slice(0, 10)}${encBackupPhrase[10] === 'A' ? 'B' : 'A'}${encBackupPhrase.slice(11)}`;
    await expect(api.unlockWallet(h2!, tampered, wallet)).rejects.toThrow('BAD_BACKUP');

    const h3 = await logIn(api, server, 'ada@example.com', 'pw one two three');
    expect(await api.unlockWallet(h3!, encBackupPhrase, wallet)).toEqual(wallet);
  });

  it('changes the password: re-registers the active wallet under the new export key', async () => {
    const server = await createOpaqueServer();
    const api = createCryptoApi();
    const { wallet, words } = await signUp(api, server, 'ada@example.com', 'old password');
    await api.activatePendingWallet();

    const { handle, registrationRequest } = await api.startRegistration('new password');
    const { registrationRecord, encBackupPhrase } = await api.finishRegistration(
      handle,
      server.registrationResponse('ada@example.com', registrationRequest),
      'active',
    );
    server.saveRecord('ada@example.com', registrationRecord);

    expect(await logIn(api, server, 'ada@example.com', 'old password')).toBeNull();
    const fresh = createCryptoApi();
    const h = await logIn(fresh, server, 'ada@example.com', 'new password');
    expect(await fresh.unlockWallet(h!, encBackupPhrase, wallet)).toEqual(wallet);
    const h2 = await logIn(fresh, server, 'ada@example.com', 'new password');
    expect(await fresh.revealPhrase(h2!, encBackupPhrase)).toEqual(words);
  });

  it('handles are single-use and expire', async () => {
    let clock = 1_000_000;
    const server = await createOpaqueServer();
    const api = createCryptoApi({ now: () => clock });
    const { encBackupPhrase, wallet } = await signUp(api, server, 'ada@example.com', 'pw pw pw pw');

    const h1 = await logIn(api, server, 'ada@example.com', 'pw pw pw pw');
    await api.revealPhrase(h1!, encBackupPhrase);
    await expect(api.revealPhrase(h1!, encBackupPhrase)).rejects.toThrow('HANDLE_EXPIRED');

    const h2 = await logIn(api, server, 'ada@example.com', 'pw pw pw pw');
    clock += HANDLE_TTL_MS + 1;
    await expect(api.unlockWallet(h2!, encBackupPhrase, wallet)).rejects.toThrow('HANDLE_EXPIRED');

    const { handle } = await api.startLogin('pw pw pw pw');
    clock += HANDLE_TTL_MS + 1;
    await expect(api.finishLogin(handle, 'AAAA')).rejects.toThrow('HANDLE_EXPIRED');
    await expect(api.finishLogin('made-up', 'AAAA')).rejects.toThrow('HANDLE_EXPIRED');
  });

  it('rejects malformed OPAQUE messages and a missing source wallet', async () => {
    const api = createCryptoApi();
    const reg = await api.startRegistration('pw');
    await expect(api.finishRegistration(reg.handle, 'AAAA', 'pending')).rejects.toThrow('NO_PENDING_WALLET');
    await api.createPendingWallet();
    await expect(api.finishRegistration(reg.handle, 'AAAA', 'pending')).rejects.toThrow('BAD_OPAQUE_MESSAGE');
    await expect(api.finishRegistration(reg.handle, 'AAAA', 'active')).rejects.toThrow('LOCKED');
    const login = await api.startLogin('pw');
    await expect(api.finishLogin(login.handle, 'AAAA')).rejects.toThrow('BAD_OPAQUE_MESSAGE');
  });
});

describe('createCryptoApi: wallets', () => {
  it('loads a typed phrase (any case and spacing) into the reference wallet', async () => {
    const api = createCryptoApi();
    const typed = REFERENCE.phrase.toUpperCase().split(' ');
    typed[3] = `  ${typed[3]} `;
    expect(await api.loadPendingWallet(typed)).toEqual({
      address: REFERENCE.address,
      publicSigningKey: REFERENCE.publicSigningKey,
      publicEncryptionKey: REFERENCE.publicEncryptionKey,
    });
    expect((await api.getPendingWords())?.join(' ')).toBe(REFERENCE.phrase);
    await expect(api.loadPendingWallet(REFERENCE.phrase.replace(/about$/, 'abandon').split(' '))).rejects.toThrow('INVALID_PHRASE');
    await expect(api.exportPrivateKeys()).rejects.toThrow('LOCKED');
    await api.activatePendingWallet();
    expect(await api.exportPrivateKeys()).toEqual({
      signingKey: REFERENCE.signingPrivateKey,
      encryptionKey: REFERENCE.encryptionPrivateKey,
    });
    await expect(api.activatePendingWallet()).rejects.toThrow('NO_PENDING_WALLET');
  });

  it('makes an airdrop wallet whose link entropy derives the same keys on the invitee device', async () => {
    const owner = createCryptoApi();
    const { wallet, entropy } = await owner.createAirdropWallet();
    expect(entropy).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // The owner's worker does not hold it: nothing is pending or active there.
    expect(await owner.getPendingWords()).toBeNull();
    expect(await owner.getWallet()).toBeNull();
    const invitee = createCryptoApi();
    expect(await invitee.loadPendingWalletFromEntropy(entropy)).toEqual(wallet);
    const signature = await invitee.signPayload({ purpose: 'wallet-login', challenge: 'c' }, true);
    expect(await verifyPayload(wallet.publicSigningKey, { purpose: 'wallet-login', challenge: 'c' }, signature)).toBe(true);
    expect(await invitee.activatePendingWallet()).toEqual(wallet);
    const second = await owner.createAirdropWallet();
    expect(second.entropy).not.toBe(entropy);
  });

  it('reads the reference wallet from its entropy and refuses anything but 16 bytes of base64url', async () => {
    const api = createCryptoApi();
    // The reference phrase 'abandon ... about' is 16 zero bytes of entropy.
    expect((await api.loadPendingWalletFromEntropy('AAAAAAAAAAAAAAAAAAAAAA')).address).toBe(REFERENCE.address);
    await expect(api.loadPendingWalletFromEntropy('AAAA')).rejects.toThrow('INVALID_PHRASE');
    await expect(api.loadPendingWalletFromEntropy('not base64url!')).rejects.toThrow('INVALID_PHRASE');
  });

  it('stores the wallet under a non-extractable device key and restores it', async () => {
    const api = createCryptoApi();
    const wallet = await api.loadPendingWallet(REFERENCE.phrase.split(' '));
    await expect(api.storeWallet()).rejects.toThrow('LOCKED');
    await api.activatePendingWallet();
    const stored = await api.storeWallet();
    expect(stored.deviceKey.extractable).toBe(false);
    expect(stored.deviceKey.algorithm).toEqual({ name: 'AES-GCM', length: 256 });
    await expect(globalThis.crypto.subtle.exportKey('raw', stored.deviceKey)).rejects.toThrow();
    expect(stored.sealed).toMatch(/^[A-Za-z0-9_-]{59}$/); // iv 12 + entropy 16 + tag 16 bytes
    expect(stored.sealed).not.toContain(REFERENCE.phrase.slice(0, 7));

    const later = createCryptoApi();
    expect(await later.restoreWallet(stored)).toEqual(wallet);
    const payload = { n: 1 };
    expect(await verifyPayload(wallet.publicSigningKey, payload, await later.signPayload(payload))).toBe(true);

    const other = await api.storeWallet();
    await expect(later.restoreWallet({ deviceKey: other.deviceKey, sealed: stored.sealed })).rejects.toThrow('BAD_STORED_WALLET');
    // Another first character (it was 'A' one time in 64, and then nothing changed).
    const tampered = `${stored.sealed.startsWith('A') ? 'B' : 'A'}${stored.sealed.slice(1)}`;
    await expect(later.restoreWallet({ deviceKey: stored.deviceKey, sealed: tampered })).rejects.toThrow('BAD_STORED_WALLET');
    await expect(later.restoreWallet({ deviceKey: stored.deviceKey, sealed: '' })).rejects.toThrow('BAD_STORED_WALLET');
  });

  it('lock() forgets the active and pending wallets and every handle', async () => {
    const server = await createOpaqueServer();
    const api = createCryptoApi();
    const { encBackupPhrase, wallet } = await signUp(api, server, 'ada@example.com', 'pw');
    await api.activatePendingWallet();
    await api.createPendingWallet();
    const handle = await logIn(api, server, 'ada@example.com', 'pw');
    const registration = await api.startRegistration('pw2');

    await api.lock();
    expect(await api.getWallet()).toBeNull();
    expect(await api.getPendingWords()).toBeNull();
    await expect(api.signPayload({ a: 1 })).rejects.toThrow('LOCKED');
    await expect(api.signPayload({ a: 1 }, true)).rejects.toThrow('NO_PENDING_WALLET');
    await expect(api.exportPrivateKeys()).rejects.toThrow('LOCKED');
    await expect(api.unlockWallet(handle!, encBackupPhrase, wallet)).rejects.toThrow('HANDLE_EXPIRED');
    await api.createPendingWallet();
    await expect(api.finishRegistration(registration.handle, 'AAAA', 'pending')).rejects.toThrow('HANDLE_EXPIRED');
  });

  it('works across a Comlink message channel (structured clone of CryptoKey, error codes kept)', async () => {
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(createCryptoApi(), port1 as unknown as Comlink.Endpoint);
    const remote = Comlink.wrap<CryptoApi>(port2 as unknown as Comlink.Endpoint);
    try {
      await remote.ready();
      await expect(remote.loadPendingWallet(['not', 'a', 'phrase'])).rejects.toThrow('INVALID_PHRASE');
      const wallet = await remote.loadPendingWallet(REFERENCE.phrase.split(' '));
      await remote.activatePendingWallet();
      const stored = await remote.storeWallet();
      expect(stored.deviceKey).toBeInstanceOf(CryptoKey);
      await remote.lock();
      expect(await remote.getWallet()).toBeNull();
      expect(await remote.restoreWallet(stored)).toEqual(wallet);
    } finally {
      remote[Comlink.releaseProxy]();
      port1.close();
      port2.close();
    }
  });
});
