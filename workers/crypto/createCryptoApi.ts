/**
 * The crypto worker's implementation of `CryptoApi` (see CryptoApi.ts for the contract).
 * `crypto.worker.ts` only exposes one instance; tests call `createCryptoApi()` directly in Node.
 *
 * Named createCryptoApi.ts, not cryptoApi.ts: beside CryptoApi.ts that name differs only in case,
 * which breaks checkouts on case-insensitive file systems (macOS, Windows) and TypeScript's
 * consistent-casing check.
 *
 * Each instance holds the worker's state (one worker per app): the pending wallet (sign-up,
 * recovery), the active wallet (signed in) and short-lived handles for OPAQUE client states and
 * export keys. None of it is ever persisted here; `storeWallet` hands out only a device-sealed copy.
 */
import { base64UrlToBytes, bytesToBase64Url, bytesToHex } from '../../src/crypto/encoding';
import { openBackupPhrase, sealBackupPhrase } from '../../src/crypto/backupPhrase';
import { deriveWalletKeysFromEntropy, toPublicWallet, wipeWalletKeys, type WalletKeys } from '../../src/crypto/keys';
import { loadOpaque } from '../../src/crypto/opaque';
import { entropyToPhrase, generatePhraseEntropy, phraseToEntropy, PHRASE_ENTROPY_BYTES } from '../../src/crypto/phrase';
import { randomBytes } from '../../src/crypto/random';
import { signPayload } from '../../src/crypto/signatures';
import { loadSodium } from '../../src/crypto/sodium';
import type { CryptoApi, PublicWallet, StoredWallet } from './CryptoApi';
import { createVaultCrypto } from './vaultCrypto';
import { planRestore } from './restoreJudge';
import { createDeviceKey, openWithDeviceKey, sealWithDeviceKey } from './deviceKey';

/**
 * How long an OPAQUE state or export key stays usable. Login with a second factor holds the export
 * key until the code is verified, and the server gives that 10 minutes (src/protocol/auth.ts).
 */
export const HANDLE_TTL_MS = 10 * 60_000;

interface Wallet {
  /** The phrase's 16 bytes of entropy: everything else derives from it. */
  entropy: Uint8Array;
  keys: WalletKeys;
  publicWallet: PublicWallet;
}

type HandleEntry =
  | { kind: 'registration'; state: string; password: string; expiresAt: number }
  | { kind: 'login'; state: string; password: string; expiresAt: number }
  | { kind: 'exportKey'; exportKey: Uint8Array; expiresAt: number };

export interface CryptoApiOptions {
  /** Clock for handle expiry; tests move it forward. */
  now?: () => number;
}

async function walletFromEntropy(entropy: Uint8Array): Promise<Wallet> {
  const keys = await deriveWalletKeysFromEntropy(entropy);
  return { entropy, keys, publicWallet: await toPublicWallet(keys) };
}

function wipeWallet(wallet: Wallet | undefined): void {
  if (!wallet) return;
  wallet.entropy.fill(0);
  wipeWalletKeys(wallet.keys);
}

function samePublicWallet(a: PublicWallet, b: PublicWallet): boolean {
  return a.address === b.address && a.publicSigningKey === b.publicSigningKey && a.publicEncryptionKey === b.publicEncryptionKey;
}

/** A fresh, independent implementation with its own state. The worker uses one: `cryptoApi`. */
export function createCryptoApi(options: CryptoApiOptions = {}): CryptoApi {
  const now = options.now ?? Date.now;
  let pending: Wallet | undefined;
  let active: Wallet | undefined;
  const handles = new Map<string, HandleEntry>();

  async function ready() {
    await Promise.all([loadSodium(), loadOpaque()]);
  }

  function forgetHandle(handle: string) {
    const entry = handles.get(handle);
    if (entry?.kind === 'exportKey') entry.exportKey.fill(0);
    handles.delete(handle);
  }

  function putHandle(entry: HandleEntry, handle = bytesToBase64Url(randomBytes(16))): string {
    for (const [id, old] of handles) if (old.expiresAt <= now()) forgetHandle(id);
    handles.set(handle, entry);
    return handle;
  }

  /** Removes and returns a live handle of `kind`: every handle is single-use. */
  function takeHandle<K extends HandleEntry['kind']>(handle: string, kind: K): Extract<HandleEntry, { kind: K }> {
    const entry = handles.get(handle);
    handles.delete(handle);
    if (!entry || entry.kind !== kind || entry.expiresAt <= now()) {
      if (entry?.kind === 'exportKey') entry.exportKey.fill(0);
      throw new Error('HANDLE_EXPIRED');
    }
    return entry as Extract<HandleEntry, { kind: K }>;
  }

  async function openWithExportKey(handle: string, encBackupPhrase: string): Promise<Uint8Array> {
    const { exportKey } = takeHandle(handle, 'exportKey');
    try {
      return await openBackupPhrase(exportKey, encBackupPhrase);
    } finally {
      exportKey.fill(0);
    }
  }

  function setPending(wallet: Wallet | undefined) {
    if (pending !== wallet) wipeWallet(pending);
    pending = wallet;
  }

  function setActive(wallet: Wallet | undefined) {
    if (active !== wallet) {
      wipeWallet(active);
      // Rings were opened with the previous wallet's keys: another account must not inherit them.
      vaults.forgetAll();
    }
    active = wallet;
  }

  function requireWallet(usePending: boolean): Wallet {
    const wallet = usePending ? pending : active;
    if (!wallet) throw new Error(usePending ? 'NO_PENDING_WALLET' : 'LOCKED');
    return wallet;
  }

  const vaults = createVaultCrypto(() => requireWallet(false).keys);

  return {
    ...vaults.api,
    ready,

    async createPendingWallet() {
      await ready();
      const wallet = await walletFromEntropy(generatePhraseEntropy());
      setPending(wallet);
      return { words: entropyToPhrase(wallet.entropy).split(' '), wallet: wallet.publicWallet };
    },

    async loadPendingWallet(words) {
      await ready();
      const wallet = await walletFromEntropy(phraseToEntropy(words));
      setPending(wallet);
      return wallet.publicWallet;
    },

    async getPendingWords() {
      return pending ? entropyToPhrase(pending.entropy).split(' ') : null;
    },

    async clearPendingWallet() {
      setPending(undefined);
    },

    async createAirdropWallet() {
      await ready();
      const wallet = await walletFromEntropy(generatePhraseEntropy());
      try {
        return { wallet: wallet.publicWallet, entropy: bytesToBase64Url(wallet.entropy) };
      } finally {
        wipeWallet(wallet);
      }
    },

    async loadPendingWalletFromEntropy(entropy) {
      await ready();
      let bytes: Uint8Array;
      try {
        bytes = base64UrlToBytes(entropy);
      } catch {
        throw new Error('INVALID_PHRASE');
      }
      if (bytes.length !== PHRASE_ENTROPY_BYTES) throw new Error('INVALID_PHRASE');
      const wallet = await walletFromEntropy(bytes);
      setPending(wallet);
      return wallet.publicWallet;
    },

    async startRegistration(password) {
      const opaque = await loadOpaque();
      const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({ password });
      const handle = putHandle({ kind: 'registration', state: clientRegistrationState, password, expiresAt: now() + HANDLE_TTL_MS });
      return { handle, registrationRequest };
    },

    async finishRegistration(handle, registrationResponse, source) {
      const opaque = await loadOpaque();
      const wallet = requireWallet(source === 'pending');
      const { state, password } = takeHandle(handle, 'registration');
      let result: { registrationRecord: string; exportKey: string };
      try {
        result = opaque.client.finishRegistration({ clientRegistrationState: state, registrationResponse, password });
      } catch {
        throw new Error('BAD_OPAQUE_MESSAGE');
      }
      const exportKey = base64UrlToBytes(result.exportKey);
      try {
        const encBackupPhrase = await sealBackupPhrase(exportKey, wallet.entropy);
        return { registrationRecord: result.registrationRecord, encBackupPhrase };
      } finally {
        exportKey.fill(0);
      }
    },

    async startLogin(password) {
      const opaque = await loadOpaque();
      const { clientLoginState, startLoginRequest } = opaque.client.startLogin({ password });
      const handle = putHandle({ kind: 'login', state: clientLoginState, password, expiresAt: now() + HANDLE_TTL_MS });
      return { handle, startLoginRequest };
    },

    async finishLogin(handle, loginResponse) {
      const opaque = await loadOpaque();
      const { state, password } = takeHandle(handle, 'login');
      let result: { finishLoginRequest: string; exportKey: string } | undefined;
      try {
        result = opaque.client.finishLogin({ clientLoginState: state, loginResponse, password });
      } catch {
        throw new Error('BAD_OPAQUE_MESSAGE');
      }
      // undefined: the server's answer does not authenticate under this password (wrong password,
      // or an unknown e-mail answered with a fake record). The server must not be told anything.
      if (!result) return null;
      // The same handle now names the export key, for unlockWallet or revealPhrase.
      putHandle({ kind: 'exportKey', exportKey: base64UrlToBytes(result.exportKey), expiresAt: now() + HANDLE_TTL_MS }, handle);
      return { finishLoginRequest: result.finishLoginRequest };
    },

    async unlockWallet(handle, encBackupPhrase, expected) {
      await ready();
      const entropy = await openWithExportKey(handle, encBackupPhrase);
      const wallet = await walletFromEntropy(entropy);
      // The blob opened, but keys that differ from the account's would sign requests the server
      // rejects and seal data nobody else can open: refuse them instead.
      if (!samePublicWallet(wallet.publicWallet, expected)) {
        wipeWallet(wallet);
        throw new Error('USER_NOT_INITIALIZED');
      }
      setActive(wallet);
      return wallet.publicWallet;
    },

    async revealPhrase(handle, encBackupPhrase) {
      await ready();
      const entropy = await openWithExportKey(handle, encBackupPhrase);
      try {
        return entropyToPhrase(entropy).split(' ');
      } finally {
        entropy.fill(0);
      }
    },

    async activatePendingWallet() {
      const wallet = requireWallet(true);
      pending = undefined;
      setActive(wallet);
      return wallet.publicWallet;
    },

    async storeWallet(): Promise<StoredWallet> {
      const wallet = requireWallet(false);
      const deviceKey = await createDeviceKey();
      return { deviceKey, sealed: await sealWithDeviceKey(deviceKey, wallet.entropy) };
    },

    async restoreWallet(stored) {
      await ready();
      let wallet: Wallet;
      try {
        const entropy = await openWithDeviceKey(stored.deviceKey, stored.sealed);
        if (entropy.length !== PHRASE_ENTROPY_BYTES) throw new Error('length');
        wallet = await walletFromEntropy(entropy);
      } catch {
        throw new Error('BAD_STORED_WALLET');
      }
      setActive(wallet);
      return wallet.publicWallet;
    },

    async getWallet() {
      return active ? active.publicWallet : null;
    },

    async exportPrivateKeys() {
      const { keys } = requireWallet(false);
      return {
        // The 32-byte Ed25519 private key of RFC 8032 (libsodium keeps seed || public key).
        signingKey: bytesToHex(keys.signingPrivateKey.subarray(0, 32)),
        encryptionKey: bytesToHex(keys.encryptionPrivateKey),
      };
    },

    async lock() {
      setPending(undefined);
      setActive(undefined);
      vaults.forgetAll();
      for (const handle of [...handles.keys()]) forgetHandle(handle);
    },

    async planRestore(vaultId, items, label) {
      return planRestore(requireWallet(false).keys, vaultId, items, label);
    },

    async signPayload(payload, usePending = false) {
      return signPayload(requireWallet(usePending).keys.signingPrivateKey, payload);
    },
  };
}
