import { describe, expect, it } from 'vitest';
import { canSubmitPhoneSetup, isOtpCode, normalizeOtpInput, toInternationalNumber } from './twoFactorRules';

describe('two-factor rules', () => {
  it('accepts exactly 6 digits as a code', () => {
    expect(isOtpCode('123456')).toBe(true);
    expect(isOtpCode('12345')).toBe(false);
    expect(isOtpCode('1234567')).toBe(false);
    expect(isOtpCode('12345a')).toBe(false);
  });

  it('keeps the digits of a pasted code', () => {
    expect(normalizeOtpInput('123 456')).toBe('123456');
    expect(normalizeOtpInput('1234567')).toBe('123456');
  });

  it('builds an international number without the trunk zero', () => {
    expect(toInternationalNumber('+44', '07700 900123')).toBe('+447700900123');
    expect(toInternationalNumber('+1', '(555) 010-0199')).toBe('+15550100199');
  });

  it('needs a country code, a phone of 9 characters and a password of 6', () => {
    const ok = { countryCode: '+44', phone: '770090012', password: '123456' };
    expect(canSubmitPhoneSetup(ok)).toBe(true);
    expect(canSubmitPhoneSetup({ ...ok, countryCode: null })).toBe(false);
    expect(canSubmitPhoneSetup({ ...ok, phone: '77009001' })).toBe(false);
    expect(canSubmitPhoneSetup({ ...ok, password: '12345' })).toBe(false);
  });
});
