/** Two-factor setup rules (spec 001 sections 5 and 9). Pure. */
import { LIMITS } from '../../protocol/primitives';

export const MFA_PASSWORD_MIN = 6;

export interface CountryCode {
  /** E.164 prefix, e.g. '+44'. */
  code: string;
  country: string;
}

/** A short list of common calling codes; anyone else picks 'Other' and types the full number. */
export const COUNTRY_CODES: readonly CountryCode[] = [
  { code: '+1', country: 'United States / Canada' },
  { code: '+44', country: 'United Kingdom' },
  { code: '+49', country: 'Germany' },
  { code: '+33', country: 'France' },
  { code: '+34', country: 'Spain' },
  { code: '+39', country: 'Italy' },
  { code: '+31', country: 'Netherlands' },
  { code: '+41', country: 'Switzerland' },
  { code: '+46', country: 'Sweden' },
  { code: '+48', country: 'Poland' },
  { code: '+353', country: 'Ireland' },
  { code: '+61', country: 'Australia' },
  { code: '+64', country: 'New Zealand' },
  { code: '+81', country: 'Japan' },
  { code: '+91', country: 'India' },
  { code: '+55', country: 'Brazil' },
  { code: '+52', country: 'Mexico' },
  { code: '+27', country: 'South Africa' },
];

export function isOtpCode(code: string): boolean {
  return new RegExp(`^\\d{${LIMITS.OTP_LENGTH}}$`).test(code);
}

/** Keeps only the digits of a typed code, at most 6 (so pasted '123 456' works). */
export function normalizeOtpInput(text: string): string {
  return text.replace(/\D/g, '').slice(0, LIMITS.OTP_LENGTH);
}

/** The number in international form: the calling code, then the digits without a trunk 0. */
export function toInternationalNumber(countryCode: string, phone: string): string {
  const digits = phone.replace(/\D/g, '').replace(/^0+/, '');
  return `${countryCode}${digits}`;
}

export interface PhoneSetupInput {
  countryCode: string | null;
  phone: string;
  password: string;
}

/** Phone 2FA: a country code, a phone of at least 9 characters, a password of at least 6. */
export function canSubmitPhoneSetup(input: PhoneSetupInput): boolean {
  return (
    !!input.countryCode &&
    input.phone.trim().length >= LIMITS.PHONE_MIN &&
    input.phone.trim().length <= LIMITS.PHONE_MAX &&
    input.password.length >= MFA_PASSWORD_MIN
  );
}
