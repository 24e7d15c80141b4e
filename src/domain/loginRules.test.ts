import { describe, expect, it } from 'vitest';
import { canSubmitLogin, isOtpCode, LOGIN_PASSWORD_MIN, normalizeEmail } from './loginRules';

describe('login rules (spec 001 section 5)', () => {
  it('lower-cases and trims the e-mail', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });

  it('enables Log in with a non-empty e-mail, an 8+ character password and no request running', () => {
    expect(LOGIN_PASSWORD_MIN).toBe(8);
    expect(canSubmitLogin({ email: 'a@b.co', password: '12345678', isLoading: false })).toBe(true);
    expect(canSubmitLogin({ email: 'a@b.co', password: '1234567', isLoading: false })).toBe(false);
    expect(canSubmitLogin({ email: '   ', password: '12345678', isLoading: false })).toBe(false);
    expect(canSubmitLogin({ email: 'a@b.co', password: '12345678', isLoading: true })).toBe(false);
  });

  it('accepts exactly 6 digits as a one-time code', () => {
    expect(isOtpCode('012345')).toBe(true);
    expect(isOtpCode('12345')).toBe(false);
    expect(isOtpCode('1234567')).toBe(false);
    expect(isOtpCode('12a456')).toBe(false);
  });
});
