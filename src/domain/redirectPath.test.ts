import { describe, expect, it } from 'vitest';
import { DEFAULT_SIGNED_IN_PATH, safeRedirectPath, splitWalletParam } from './redirectPath';

describe('safeRedirectPath', () => {
  it('returns to a same-origin path with its query', () => {
    expect(safeRedirectPath('/account/security?x=1')).toBe('/account/security?x=1');
  });

  it('falls back to /vaults/active for anything that could leave the origin', () => {
    for (const value of ['https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '', undefined, 42, '/a\nb']) {
      expect(safeRedirectPath(value)).toBe(DEFAULT_SIGNED_IN_PATH);
    }
  });

  it('does not return to the signed-out pages', () => {
    expect(safeRedirectPath('/login?redirect=/x')).toBe(DEFAULT_SIGNED_IN_PATH);
    expect(safeRedirectPath('/verify')).toBe(DEFAULT_SIGNED_IN_PATH);
    expect(safeRedirectPath('/loginx')).toBe('/loginx');
  });
});

describe('airdrop location (spec 000 section 2)', () => {
  it('keeps the wallet apart from the path to return to', () => {
    expect(splitWalletParam('/vaults/active?wallet=abc_-1&x=1')).toEqual({ wallet: 'abc_-1', path: '/vaults/active?x=1' });
    expect(splitWalletParam('/vaults/active?wallet=abc')).toEqual({ wallet: 'abc', path: '/vaults/active' });
    expect(splitWalletParam('/vaults/active')).toEqual({ wallet: null, path: '/vaults/active' });
    expect(splitWalletParam('/vaults/active?wallet=')).toEqual({ wallet: null, path: '/vaults/active' });
  });
});
