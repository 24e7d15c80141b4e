/** Who may open the mint wizard (spec 002 section 6): public permanent vaults, and those who may add to them. */
import { describe, expect, it } from 'vitest';
import type { VaultRecord } from '../../../storage/vaultRecords';
import { canMintIn } from './MintNftButton';

const vault = (change: Partial<VaultRecord>) => ({ isPublic: true, isCloud: false, ...change }) as VaultRecord;

describe('Mint NFT', () => {
  it('is offered in a public permanent vault to whoever may upload there', () => {
    expect(canMintIn({ vault: vault({}), canUpload: true })).toBe(true);
  });

  it('is disabled for a VIEWER, an archived vault or read-only mode (the room cannot upload)', () => {
    expect(canMintIn({ vault: vault({}), canUpload: false })).toBe(false);
  });

  it('is never offered in a private or a cloud vault', () => {
    expect(canMintIn({ vault: vault({ isPublic: false }), canUpload: true })).toBe(false);
    expect(canMintIn({ vault: vault({ isCloud: true }), canUpload: true })).toBe(false);
  });
});
