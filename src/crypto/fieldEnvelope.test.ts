import { describe, expect, it } from 'vitest';
import fixture from '../../tests/fixtures/field-envelope.json';
import { SealedField, type FieldName } from '../protocol/vaults';
import { bytesToHex, hexToBytes } from './encoding';
import { decodeTags, encodeTags, fieldAssociatedData, openField, sealField, sealFieldWithNonce, type FieldContext } from './fieldEnvelope';
import { randomBytes } from './random';
import { loadSodium } from './sodium';

const key = hexToBytes(fixture.key);
const contextOf = (v: (typeof fixture.vectors)[number]): FieldContext => ({ vaultId: v.vaultId, objectId: v.objectId, field: v.field as FieldName });

describe('field envelope v1', () => {
  it.each(fixture.vectors)('known answer: $field of $objectId under key $keyIndex', async (vector) => {
    const sodium = await loadSodium();
    expect(bytesToHex(fieldAssociatedData(contextOf(vector), vector.keyIndex))).toBe(vector.ad);
    const sealed = sealFieldWithNonce(sodium, key, vector.keyIndex, contextOf(vector), vector.plaintext, hexToBytes(vector.nonce));
    expect(sealed).toEqual(vector.sealed);
    expect(SealedField.safeParse(sealed).success).toBe(true);
    expect(openField(sodium, key, contextOf(vector), vector.sealed)).toBe(vector.plaintext);
  });

  it('seals with a fresh nonce each time and opens again', async () => {
    const sodium = await loadSodium();
    const context: FieldContext = { vaultId: 'v1', objectId: 'o1', field: 'description' };
    const a = sealField(sodium, key, 0, context, 'Notes for 2026');
    const b = sealField(sodium, key, 0, context, 'Notes for 2026');
    expect(a.c).not.toBe(b.c);
    expect(openField(sodium, key, context, a)).toBe('Notes for 2026');
    expect(openField(sodium, key, context, b)).toBe('Notes for 2026');
  });

  it('a field sealed for one vault, object, field or key number does not open for another', async () => {
    const sodium = await loadSodium();
    const vector = fixture.vectors[0]!;
    const context = contextOf(vector);
    const others: FieldContext[] = [
      { ...context, vaultId: 'vault_02' },
      { ...context, objectId: 'node_43' },
      { ...context, field: 'description' },
      // Same concatenation with the separator moved must still differ.
      { vaultId: 'vault_01\0node_42', objectId: 'x', field: context.field },
    ];
    for (const other of others) expect(() => openField(sodium, key, other, vector.sealed)).toThrow(/BAD_FIELD/);
    expect(() => openField(sodium, key, context, { ...vector.sealed, key: vector.sealed.key + 1 })).toThrow('BAD_FIELD');
    expect(() => openField(sodium, randomBytes(32), context, vector.sealed)).toThrow('BAD_FIELD');
  });

  it('tampering and garbage give BAD_FIELD', async () => {
    const sodium = await loadSodium();
    const vector = fixture.vectors[0]!;
    const c = vector.sealed.c;
    for (const index of [0, 30, c.length - 2]) {
      const flipped = c.slice(0, index) + (c[index] === 'A' ? 'B' : 'A') + c.slice(index + 1);
      expect(() => openField(sodium, key, contextOf(vector), { key: 0, c: flipped })).toThrow('BAD_FIELD');
    }
    for (const bad of ['', 'AAAA', 'not base64url!', c.slice(0, 40)]) {
      expect(() => openField(sodium, key, contextOf(vector), { key: 0, c: bad })).toThrow('BAD_FIELD');
    }
  });

  it('refuses a bad key, nonce, key index or id when sealing', async () => {
    const sodium = await loadSodium();
    const context: FieldContext = { vaultId: 'v', objectId: 'o', field: 'name' };
    expect(() => sealField(sodium, randomBytes(16), 0, context, 'x')).toThrow(TypeError);
    expect(() => sealFieldWithNonce(sodium, key, 0, context, 'x', randomBytes(12))).toThrow(TypeError);
    expect(() => sealField(sodium, key, -1, context, 'x')).toThrow(TypeError);
    expect(() => sealField(sodium, key, 0, { ...context, objectId: '' }, 'x')).toThrow(TypeError);
  });

  it('tags travel as a JSON array of strings', () => {
    expect(encodeTags(['tax', 'é ✓'])).toBe('["tax","é ✓"]');
    expect(decodeTags(encodeTags(['a', 'b']))).toEqual(['a', 'b']);
    expect(decodeTags('not json')).toEqual([]);
    expect(decodeTags('[1,2]')).toEqual([]);
  });
});
