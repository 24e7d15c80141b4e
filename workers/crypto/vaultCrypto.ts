/**
 * The vault half of the crypto worker (`VaultCryptoApi`, DESIGN.md section 3): key rings held in
 * memory by vault id, sealed fields, signed operations and file keys. Split from
 * createCryptoApi.ts, which spreads `api` into the worker's one object and calls `forgetAll` on
 * lock and on a change of wallet.
 *
 * Rings never leave the worker except sealed to a member's X25519 key.
 */
import { base64UrlToBytes, bytesEqual, bytesToBase64Url, bytesToHex, hexToBytes } from '../../src/crypto/encoding';
import { openField, sealField, type FieldContext } from '../../src/crypto/fieldEnvelope';
import { FILE_KEY_BYTES } from '../../src/crypto/fileChunks';
import { addKey, createKeyRing, openKeyRing, sealKeyRing, type KeyRing } from '../../src/crypto/keyRing';
import type { WalletKeys } from '../../src/crypto/keys';
import { signOperation, verifyOperations } from '../../src/crypto/operations';
import { randomBytes } from '../../src/crypto/random';
import { loadSodium, type Sodium } from '../../src/crypto/sodium';
import { operationFieldSlots } from '../../src/protocol/operationRules';
import type { Field, FieldName, Operation, SealedField, SequencedOperation } from '../../src/protocol/vaults';
import type { OpenedFields, OpenedOperation, VaultCryptoApi, VaultKeySharingApi } from './CryptoApi';

/** A field of an operation: where it sits (for the associated data) and its value. */
interface OperationField {
  name: FieldName;
  objectId: string;
  value: Field | undefined;
}

/**
 * Every user-text field slot of an operation, `fileKey` included, as OPERATION_RULES describes
 * them (src/protocol/operationRules.ts): the worker seals, opens and reseals exactly the fields
 * the server checks.
 */
const fieldSlots = operationFieldSlots;

/**
 * The user-text fields an operation carries for opening on pull. `fileKey` is not listed: it is
 * opened only on demand, by `openFileKey`.
 */
export function operationFields(op: Operation): OperationField[] {
  return fieldSlots(op.body, op.objectId)
    .filter((slot) => slot.name !== 'fileKey')
    .map(({ name, objectId, holder, property }) => ({ name, objectId, value: holder[property] as Field | undefined }));
}

function isClear(field: Field): field is { clear: string } {
  return 'clear' in field;
}

/** Opens one field: clear text passes through; a sealed one opens with its key, else null. */
function openOne(sodium: Sodium, ring: KeyRing | undefined, context: FieldContext, field: Field): string | null {
  if (isClear(field)) return field.clear;
  const key = ring?.[field.key];
  if (!key) return null;
  try {
    return openField(sodium, key, context, field);
  } catch {
    return null;
  }
}

export interface VaultCrypto {
  api: VaultCryptoApi & VaultKeySharingApi;
  /** Wipes and forgets every held ring. */
  forgetAll(): void;
}

/** `walletKeys` answers the active wallet's keys or throws Error('LOCKED'). */
export function createVaultCrypto(walletKeys: () => WalletKeys): VaultCrypto {
  const rings = new Map<string, KeyRing>();
  /**
   * How many of each ring's keys may seal (SYNC_SPEC R51): those this worker made, and those the
   * client's judge of the vault's log confirmed were handed out by an allowed operation. A ring
   * opened from what the server serves opens content at once, but seals only once confirmed, so a
   * key the server slipped in never seals anything.
   */
  const trusted = new Map<string, number>();

  function setRing(vaultId: string, ring: KeyRing, trustedCount: number) {
    const old = rings.get(vaultId);
    // Keys shared with the new ring (a rotation keeps them) must not be wiped.
    if (old) for (const key of old) if (!ring.includes(key)) key.fill(0);
    rings.set(vaultId, ring);
    trusted.set(vaultId, Math.min(trustedCount, ring.length));
  }

  function requireRing(vaultId: string): KeyRing {
    const ring = rings.get(vaultId);
    if (!ring) throw new Error('NO_VAULT_KEYS');
    return ring;
  }

  /** The keys that may seal: Error('UNVERIFIED_VAULT_KEYS') while none is confirmed. */
  function requireTrustedRing(vaultId: string): KeyRing {
    const ring = requireRing(vaultId);
    const count = trusted.get(vaultId) ?? 0;
    if (count === 0) throw new Error('UNVERIFIED_VAULT_KEYS');
    return ring.slice(0, count);
  }

  /**
   * Where each held ring's own keys start: keys this worker added by a rotation nobody has vouched
   * for yet (its push may still be refused, and then another device's rotation holds that number).
   */
  const provisional = new Map<string, number>();

  /**
   * A ring opened from the server must agree with the held one on every key both have: it may add
   * keys (a rotation) or lack keys nobody accepted, never replace one, except a key of our own
   * rotation nobody vouched for (refused: another device rotated first). Answers how many of its
   * keys stay trusted, and whether it is the held ring itself.
   */
  function reconcile(vaultId: string, ring: KeyRing): { keep: number; isSame: boolean } {
    const held = rings.get(vaultId);
    if (!held) return { keep: 0, isSame: false };
    const own = provisional.get(vaultId) ?? held.length;
    let keep = Math.min(trusted.get(vaultId) ?? 0, ring.length);
    let isSame = held.length === ring.length;
    for (let i = 0; i < Math.min(held.length, ring.length); i++) {
      if (bytesEqual(held[i]!, ring[i]!)) continue;
      if (i < own) throw new Error('KEY_RING_REPLACED');
      // Our refused rotation's key: the served one replaces it, and seals once the log vouches for it.
      isSame = false;
      keep = Math.min(keep, own);
    }
    return { keep, isSame };
  }

  function sealNewest(sodium: Sodium, vaultId: string, objectId: string, field: FieldName, text: string): SealedField {
    const ring = requireTrustedRing(vaultId);
    const keyIndex = ring.length - 1;
    return sealField(sodium, ring[keyIndex]!, keyIndex, { vaultId, objectId, field }, text);
  }

  const api: VaultCryptoApi & VaultKeySharingApi = {
    async createVaultKeys(vaultId) {
      const sodium = await loadSodium();
      const keys = walletKeys();
      const ring = createKeyRing();
      setRing(vaultId, ring, ring.length);
      return { sealedKeys: sealKeyRing(sodium, ring, keys.encryptionPublicKey) };
    },

    async openVaultKeys(vaultId, sealedKeys) {
      const sodium = await loadSodium();
      const keys = walletKeys();
      const ring = openKeyRing(sodium, sealedKeys, keys.encryptionPublicKey, keys.encryptionPrivateKey);
      const { keep, isSame } = reconcile(vaultId, ring);
      if (isSame) {
        for (const key of ring) key.fill(0);
        return { keyCount: ring.length };
      }
      // Keys that agree with the held ring stay trusted; the rest wait for confirmVaultKeys.
      setRing(vaultId, ring, keep);
      provisional.delete(vaultId);
      return { keyCount: ring.length };
    },

    async forgetVaultKeys(vaultId) {
      for (const key of rings.get(vaultId) ?? []) key.fill(0);
      rings.delete(vaultId);
      trusted.delete(vaultId);
      provisional.delete(vaultId);
    },

    async confirmVaultKeys(vaultId, sealedKeys, keyCount) {
      const sodium = await loadSodium();
      const keys = walletKeys();
      const vouched = openKeyRing(sodium, sealedKeys, keys.encryptionPublicKey, keys.encryptionPrivateKey);
      const count = Math.min(keyCount, vouched.length);
      const held = rings.get(vaultId);
      if (!held) {
        setRing(vaultId, vouched, count);
        return { trustedCount: count, keyCount: vouched.length };
      }
      // The log vouched for this very ring, which need not be the one held: a rotation of our own
      // (its push not answered yet, or refused) may hold as many keys. Trusting the held ring by its
      // size would let our own new key seal though another device's key won that number.
      const own = provisional.get(vaultId) ?? held.length;
      const { keep, isSame } = reconcile(vaultId, vouched);
      const isHeldPrefix = vouched.length < held.length && vouched.every((key, i) => bytesEqual(key, held[i]!));
      if (isSame || isHeldPrefix) {
        for (const key of vouched) key.fill(0);
        trusted.set(vaultId, Math.max(trusted.get(vaultId) ?? 0, count));
        // The log vouched for our own rotation's key: it is no longer ours alone.
        if (isSame && count > own) provisional.delete(vaultId);
      } else {
        // Another device's rotation won the number our own new key holds: theirs replaces it.
        setRing(vaultId, vouched, Math.max(keep, count));
        provisional.delete(vaultId);
      }
      return { trustedCount: trusted.get(vaultId) ?? 0, keyCount: requireRing(vaultId).length };
    },

    async hasVaultKeys(vaultId) {
      return rings.has(vaultId);
    },

    async sealVaultKeysFor(vaultId, publicEncryptionKey) {
      const sodium = await loadSodium();
      // Only keys the log vouched for are ever passed on to another member.
      const ring = requireTrustedRing(vaultId);
      let publicKey: Uint8Array;
      try {
        publicKey = hexToBytes(publicEncryptionKey);
      } catch {
        throw new TypeError('sealVaultKeysFor: public key must be hex');
      }
      return { sealedKeys: sealKeyRing(sodium, ring, publicKey), keyCount: ring.length };
    },

    async rotateVaultKeys(vaultId) {
      const held = requireRing(vaultId);
      if ((trusted.get(vaultId) ?? 0) !== held.length) throw new Error('UNVERIFIED_VAULT_KEYS');
      const ring = addKey(held);
      setRing(vaultId, ring, ring.length);
      if (!provisional.has(vaultId)) provisional.set(vaultId, held.length);
      return { keyCount: ring.length };
    },

    async resealOperation(vaultId, op) {
      const sodium = await loadSodium();
      const ring = requireTrustedRing(vaultId);
      const newest = ring.length - 1;
      const copy = structuredClone(op);
      let resealed = 0;
      for (const { name, objectId, holder, property } of fieldSlots(copy.body, copy.objectId)) {
        const value = holder[property] as Field | undefined;
        if (!value || isClear(value) || value.key === newest) continue;
        const key = ring[value.key];
        if (!key) throw new Error('BAD_FIELD');
        const context = { vaultId, objectId, field: name };
        holder[property] = sealField(sodium, ring[newest]!, newest, context, openField(sodium, key, context, value));
        resealed += 1;
      }
      return resealed ? copy : null;
    },

    async sealFields(vaultId, objectId, fields) {
      const sodium = await loadSodium();
      requireTrustedRing(vaultId);
      const sealed: Partial<Record<FieldName, SealedField>> = {};
      for (const [name, text] of Object.entries(fields) as Array<[FieldName, string | undefined]>) {
        if (text !== undefined) sealed[name] = sealNewest(sodium, vaultId, objectId, name, text);
      }
      return sealed;
    },

    async signOperation(op) {
      const keys = walletKeys();
      if (op.author !== bytesToHex(keys.signingPublicKey)) throw new Error('WRONG_AUTHOR');
      return signOperation(keys.signingPrivateKey, op);
    },

    async openOperations(vaultId, ops: SequencedOperation[]): Promise<OpenedOperation[]> {
      const sodium = await loadSodium();
      const ring = rings.get(vaultId);
      const opened: OpenedOperation[] = [];
      const verdicts = await verifyOperations(ops.map((o) => o.op));
      for (const [i, { op }] of ops.entries()) {
        // An operation of another vault slipped into this page is not this vault's, however signed.
        const isVerified = op.vaultId === vaultId && verdicts[i] === true;
        const fields: OpenedFields = {};
        // Unverified operations are not applied, so nothing of theirs is decrypted either.
        if (isVerified) {
          for (const { name, objectId, value } of operationFields(op)) {
            if (value) fields[name] = openOne(sodium, ring, { vaultId, objectId, field: name }, value);
          }
        }
        opened.push({ isVerified, fields });
      }
      return opened;
    },

    async createFileKey(vaultId, versionId) {
      const sodium = await loadSodium();
      const raw = randomBytes(FILE_KEY_BYTES);
      const sealed = sealNewest(sodium, vaultId, versionId, 'fileKey', bytesToBase64Url(raw));
      return { rawKey: raw.buffer, sealed };
    },

    async openFileKey(vaultId, versionId, sealed) {
      const sodium = await loadSodium();
      const key = rings.get(vaultId)?.[sealed.key];
      if (!key) throw new Error('BAD_FILE_KEY');
      try {
        const raw = base64UrlToBytes(openField(sodium, key, { vaultId, objectId: versionId, field: 'fileKey' }, sealed));
        if (raw.length !== FILE_KEY_BYTES) throw new Error('length');
        return raw.buffer;
      } catch {
        throw new Error('BAD_FILE_KEY');
      }
    },
  };

  return {
    api,
    forgetAll() {
      for (const ring of rings.values()) for (const key of ring) key.fill(0);
      rings.clear();
      trusted.clear();
      provisional.clear();
    },
  };
}
