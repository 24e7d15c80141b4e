/**
 * A user as the real client is: a BIP39 phrase, the wallet keys and `encBackupPhrase` made by the
 * client's own crypto code (src/crypto), and the OPAQUE client of @serenity-kit/opaque. Nothing is
 * stubbed, so these tests also prove the client's signatures verify on the server.
 */
import crypto from 'node:crypto';
import * as opaque from '@serenity-kit/opaque';
import { sealBackupPhrase } from '../../src/crypto/backupPhrase';
import { base64UrlToBytes, bytesToHex } from '../../src/crypto/encoding';
import { type KeyRing, openKeyRing } from '../../src/crypto/keyRing';
import { deriveWalletKeys, toPublicWallet, type WalletKeys } from '../../src/crypto/keys';
import { entropyToPhrase, generatePhraseEntropy, phraseToEntropy, phraseToSeed } from '../../src/crypto/phrase';
import { signPayload } from '../../src/crypto/signatures';
import { loadSodium } from '../../src/crypto/sodium';

/**
 * The server only needs the client to be consistent, so tests use a cheap Argon2id setting to
 * keep each OPAQUE finish fast. The real client's setting is the crypto worker's choice.
 */
export const TEST_KEY_STRETCHING = { 'argon2id-custom': { iterations: 1, memory: 1024, parallelism: 1 } } as const;

let counter = 0;

export interface TestUserOptions {
  email?: string;
  password?: string;
  phrase?: string;
}

export class TestUser {
  password: string;

  private constructor(
    readonly email: string,
    password: string,
    readonly phrase: string,
    private readonly keys: WalletKeys,
    readonly address: string,
    readonly publicSigningKey: string,
    readonly publicEncryptionKey: string,
  ) {
    this.password = password;
  }

  static async create(options: TestUserOptions = {}): Promise<TestUser> {
    counter += 1;
    await opaque.ready;
    const phrase = options.phrase ?? entropyToPhrase(generatePhraseEntropy());
    const keys = await deriveWalletKeys(await phraseToSeed(phrase));
    const wallet = await toPublicWallet(keys);
    return new TestUser(
      options.email ?? `user${counter}-${crypto.randomBytes(4).toString('hex')}@example.com`,
      options.password ?? `correct horse battery staple ${crypto.randomBytes(6).toString('hex')}`,
      phrase,
      keys,
      wallet.address,
      wallet.publicSigningKey,
      wallet.publicEncryptionKey,
    );
  }

  /** The 32-byte Ed25519 private key (SLIP-0010 output: the first half of libsodium's secret key), hex. */
  get privateKeyHex(): string {
    return bytesToHex(this.keys.signingPrivateKey.subarray(0, 32));
  }

  /** Ed25519 signature (base64url) over canonicalBytes(payload), by the client's own code. */
  sign(payload: unknown): Promise<string> {
    return signPayload(this.keys.signingPrivateKey, payload);
  }

  /** Opens a vault key ring sealed to this user's X25519 key, as the crypto worker does. */
  async openKeyRing(sealed: string): Promise<KeyRing> {
    return openKeyRing(await loadSodium(), sealed, this.keys.encryptionPublicKey, this.keys.encryptionPrivateKey);
  }

  /** `encBackupPhrase` for a registration's export key, as the crypto worker makes it. */
  sealPhrase(exportKey: string): Promise<string> {
    return sealBackupPhrase(base64UrlToBytes(exportKey), phraseToEntropy(this.phrase));
  }

  startRegistration(password = this.password): { state: string; registrationRequest: string } {
    const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({ password });
    return { state: clientRegistrationState, registrationRequest };
  }

  finishRegistration(state: string, registrationResponse: string, password = this.password) {
    return opaque.client.finishRegistration({
      clientRegistrationState: state,
      registrationResponse,
      password,
      keyStretching: TEST_KEY_STRETCHING,
    });
  }

  startLogin(password = this.password): { state: string; startLoginRequest: string } {
    const { clientLoginState, startLoginRequest } = opaque.client.startLogin({ password });
    return { state: clientLoginState, startLoginRequest };
  }

  /** Null when the password is wrong (the client detects it and never sends a proof). */
  finishLogin(state: string, loginResponse: string, password = this.password) {
    return (
      opaque.client.finishLogin({
        clientLoginState: state,
        loginResponse,
        password,
        keyStretching: TEST_KEY_STRETCHING,
      }) ?? null
    );
  }
}
