/**
 * Private vaults carry every user text sealed, public vaults in clear (spec 000 section 3,
 * DESIGN.md section 3). The server cannot open a sealed field, but it refuses a clear one in a
 * private vault, so a client bug cannot leak a name into the server's storage.
 */
import { ApiError } from '../../../src/protocol/errors';
import { operationFieldSlots } from '../../../src/protocol/operationRules';
import type { Field, FileVersion, OperationBody, SealedField } from '../../../src/protocol/vaults';

/** The operation's user texts (file key aside) and its file version, if any (OPERATION_RULES). */
function fieldsOf(body: OperationBody): { fields: Field[]; version: FileVersion | null } {
  const version = 'version' in body ? body.version : null;
  const fields = operationFieldSlots(body, '')
    .filter((slot) => slot.name !== 'fileKey')
    .map((slot) => slot.holder[slot.property] as Field | undefined)
    .filter((field): field is Field => field !== undefined);
  return { fields, version };
}

/** Throws VALIDATION_FAILED when a field does not match the vault's kind. */
export function assertFieldsMatchVault(body: OperationBody, isPublic: boolean): void {
  const { fields, version } = fieldsOf(body);
  if (isPublic) {
    const sealed = fields.some((f) => !('clear' in f)) || version?.fileKey !== undefined || (body.type === 'vault.create' && body.ownerKeys !== undefined);
    if (sealed) throw new ApiError('VALIDATION_FAILED', 'A public vault carries clear fields and no keys');
  } else {
    const clear = fields.some((f) => 'clear' in f) || (version !== null && version.fileKey === undefined);
    if (clear) throw new ApiError('VALIDATION_FAILED', 'A private vault carries sealed fields and a sealed file key');
    if (body.type === 'vault.create' && body.ownerKeys === undefined) {
      throw new ApiError('VALIDATION_FAILED', 'A private vault needs the owner key ring');
    }
  }
}

/**
 * Sealed content must use the vault's newest key (DESIGN.md section 3): after a rotation, a field
 * sealed under an older key could be opened by the member the rotation removed, so it is
 * refused (STALE_VAULT_KEY: the client reseals and retries). While a member's leave awaits its
 * rotation, the newest key is still one the leaver holds: sealed content waits
 * (KEY_ROTATION_PENDING). Operations without sealed fields pass.
 */
export function assertSealedUnderNewestKey(body: OperationBody, vault: { keyCount: number; needsRotation: boolean }): void {
  const { fields, version } = fieldsOf(body);
  const sealed = [...fields, ...(version?.fileKey ? [version.fileKey] : [])].filter((f): f is SealedField => 'key' in f);
  if (sealed.length === 0) return;
  if (vault.needsRotation) throw new ApiError('KEY_ROTATION_PENDING', 'A member left this vault: new content waits for the key rotation');
  if (sealed.some((f) => f.key !== vault.keyCount - 1)) {
    throw new ApiError('STALE_VAULT_KEY', `Content must be sealed under the vault's newest key (number ${vault.keyCount - 1})`);
  }
}
