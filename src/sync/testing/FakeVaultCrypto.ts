/**
 * A stand-in for the crypto worker's vault half, for sync tests (a fake at the port). It keeps
 * the contract's observable behaviour: rings must be created or opened before sealing, sealed
 * fields are bound to (vault, object, field) and open to null otherwise, signatures cover the
 * canonical operation so any change after signing makes `isVerified` false. It is NOT
 * cryptography: sealing is an encoding and the "signature" a checksum.
 */
import type { OpenedFields, OpenedOperation, VaultCryptoApi } from '../../../workers/crypto/CryptoApi';
import { canonicalJson } from '../../protocol/canonical';
import type { Field, FieldName, Operation, SealedField, SequencedOperation, UnsignedOperation } from '../../protocol/vaults';

function toBase64Url(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function fromBase64Url(value: string): string {
  const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** 86 base64url characters derived from `text` (FNV-1a rounds): the fake signature. */
export function fakeSignature(text: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let out = '';
  for (let round = 0; out.length < 86; round++) {
    let h = 0x811c9dc5 ^ round;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    for (let k = 0; k < 5 && out.length < 86; k++) out += alphabet[(h >>> (k * 6)) & 63];
  }
  return out;
}

export function signFake(op: UnsignedOperation): Operation {
  const { ...unsigned } = op;
  return { ...unsigned, signature: fakeSignature(canonicalJson({ purpose: 'vault-op', op: unsigned })) };
}

export function verifyFake(op: Operation): boolean {
  const { signature, ...unsigned } = op;
  return signature === fakeSignature(canonicalJson({ purpose: 'vault-op', op: unsigned }));
}

export class FakeVaultCrypto implements VaultCryptoApi {
  readonly rings = new Set<string>();
  /** Vaults whose ring may seal: created here, or confirmed by the log's judge (SYNC_SPEC R51). */
  readonly trusted = new Set<string>();
  /** Calls made, for assertions (e.g. a resumed upload reopens its file key). */
  readonly calls: string[] = [];

  async createVaultKeys(vaultId: string) {
    this.calls.push('createVaultKeys');
    this.rings.add(vaultId);
    this.trusted.add(vaultId);
    return { sealedKeys: toBase64Url(`ring:${vaultId}`) };
  }

  async openVaultKeys(vaultId: string, sealedKeys: string) {
    this.calls.push('openVaultKeys');
    if (fromBase64Url(sealedKeys) !== `ring:${vaultId}`) throw new Error('BAD_VAULT_KEYS');
    this.rings.add(vaultId);
    return { keyCount: 1 };
  }

  async forgetVaultKeys(vaultId: string) {
    this.calls.push('forgetVaultKeys');
    this.rings.delete(vaultId);
    this.trusted.delete(vaultId);
  }

  async confirmVaultKeys(vaultId: string, sealedKeys: string, keyCount: number) {
    this.calls.push('confirmVaultKeys');
    if (fromBase64Url(sealedKeys) !== `ring:${vaultId}`) throw new Error('BAD_VAULT_KEYS');
    this.rings.add(vaultId);
    if (keyCount < 1) return { trustedCount: this.trusted.has(vaultId) ? 1 : 0, keyCount: 1 };
    this.trusted.add(vaultId);
    return { trustedCount: 1, keyCount: 1 };
  }

  async hasVaultKeys(vaultId: string) {
    return this.rings.has(vaultId);
  }

  private seal(vaultId: string, objectId: string, name: FieldName, value: string): SealedField {
    if (!this.rings.has(vaultId)) throw new Error('NO_VAULT_KEYS');
    if (!this.trusted.has(vaultId)) throw new Error('UNVERIFIED_VAULT_KEYS');
    return { key: 0, c: toBase64Url(JSON.stringify([vaultId, objectId, name, value])) };
  }

  async sealFields(vaultId: string, objectId: string, fields: Partial<Record<FieldName, string>>) {
    this.calls.push('sealFields');
    const out: Partial<Record<FieldName, SealedField>> = {};
    for (const [name, value] of Object.entries(fields) as [FieldName, string][]) out[name] = this.seal(vaultId, objectId, name, value);
    return out;
  }

  async signOperation(op: UnsignedOperation) {
    this.calls.push('signOperation');
    return signFake(op);
  }

  private open(vaultId: string, objectId: string, name: FieldName, field: Field | undefined): string | null | undefined {
    if (!field) return undefined;
    if ('clear' in field) return field.clear;
    if (!this.rings.has(vaultId)) return null;
    try {
      const [v, o, n, value] = JSON.parse(fromBase64Url(field.c)) as [string, string, string, string];
      return v === vaultId && o === objectId && n === name ? value : null;
    } catch {
      return null;
    }
  }

  async openOperations(vaultId: string, ops: SequencedOperation[]): Promise<OpenedOperation[]> {
    this.calls.push('openOperations');
    return ops.map(({ op }) => {
      const fields: OpenedFields = {};
      const body = op.body as Record<string, unknown>;
      for (const name of ['name', 'description', 'tags', 'terms'] as const) {
        const value = this.open(vaultId, op.objectId, name, body[name] as Field | undefined);
        if (value !== undefined) fields[name] = value;
      }
      if (op.body.type === 'file.create' || op.body.type === 'file.addVersion') {
        fields.mimeType = this.open(vaultId, op.body.version.versionId, 'mimeType', op.body.version.mimeType) ?? null;
      }
      if (op.body.type === 'note.draft') fields.draft = this.open(vaultId, op.objectId, 'draft', op.body.update) ?? null;
      return { isVerified: op.vaultId === vaultId && verifyFake(op), fields };
    });
  }

  async createFileKey(vaultId: string, versionId: string) {
    this.calls.push('createFileKey');
    const raw = globalThis.crypto.getRandomValues(new Uint8Array(32));
    const hex = [...raw].map((b) => b.toString(16).padStart(2, '0')).join('');
    return { rawKey: raw.buffer, sealed: this.seal(vaultId, versionId, 'fileKey', hex) };
  }

  async openFileKey(vaultId: string, versionId: string, sealed: SealedField) {
    this.calls.push('openFileKey');
    const hex = this.open(vaultId, versionId, 'fileKey', sealed);
    if (!hex) throw new Error('BAD_FILE_KEY');
    return Uint8Array.from(hex.match(/../g)!, (h) => parseInt(h, 16)).buffer;
  }
}
