import { describe, expect, it } from 'vitest';
import { DELETE_ACCOUNT_OWNED_VAULT } from '../../protocol/auth';
import { ApiError } from '../../protocol/errors';
import { blockingVaultIds, deleteAccountBlockedText } from './deleteAccountRules';

describe('[R60] the delete-account refusal', () => {
  it('reads the vault ids the server names, and nothing from other errors', () => {
    const refusal = new ApiError('CONFLICT', 'You are the only owner...', [
      { path: DELETE_ACCOUNT_OWNED_VAULT, message: 'v1' },
      { path: DELETE_ACCOUNT_OWNED_VAULT, message: 'v2' },
    ]);
    expect(blockingVaultIds(refusal)).toEqual(['v1', 'v2']);
    expect(blockingVaultIds(new ApiError('CONFLICT', 'other'))).toBeNull();
    expect(blockingVaultIds(new ApiError('INTERNAL', 'x', [{ path: DELETE_ACCOUNT_OWNED_VAULT, message: 'v1' }]))).toBeNull();
    expect(blockingVaultIds(new Error('offline'))).toBeNull();
  });

  it('names each vault, or says it is not on this device', () => {
    expect(deleteAccountBlockedText(['Team'])).toBe(
      "Your account cannot be deleted yet: you are the only owner of 'Team', which other members still use. Make one of them an owner of it, or remove them, then try again.",
    );
    expect(deleteAccountBlockedText(['Team', null, 'Photos'])).toContain("of 'Team', a vault not on this device and 'Photos', which");
  });
});
