/** The key ring a member.* operation hands to a member (DESIGN.md section 3). */
import { ApiError } from '../../../src/protocol/errors';
import type { Vault } from '../vaultRows';

/** A private vault's ring must be whole (the current number of keys); a public vault has none. */
export function assertRing(vault: Vault, keys: string | undefined, keyCount: number | undefined): void {
  if (vault.isPublic) {
    if (keys !== undefined || keyCount !== undefined) throw new ApiError('VALIDATION_FAILED', 'A public vault has no keys');
    return;
  }
  if (keys === undefined || keyCount === undefined) throw new ApiError('VALIDATION_FAILED', 'A private vault needs the key ring sealed to the member');
  if (keyCount !== vault.keyCount) {
    throw new ApiError('STALE_VAULT_KEY', `The vault has ${vault.keyCount} keys; the ring sealed has ${keyCount}: fetch the vault again`);
  }
}
