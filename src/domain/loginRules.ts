/**
 * Login and two-factor form rules (spec 001 sections 5 and 9). Pure, no React.
 */
import { LIMITS } from '../protocol/primitives';

export const LOGIN_PASSWORD_MIN = 8;

/** The e-mail is lower-cased and trimmed before it is sent (and signed). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface LoginInput {
  email: string;
  password: string;
  isLoading: boolean;
}

/** 'Log in' is enabled when the e-mail is non-empty, the password has 8+ characters and nothing runs. */
export function canSubmitLogin(input: LoginInput): boolean {
  return normalizeEmail(input.email).length > 0 && input.password.length >= LOGIN_PASSWORD_MIN && !input.isLoading;
}

const OTP_PATTERN = new RegExp(`^\\d{${LIMITS.OTP_LENGTH}}$`);

/** A one-time code is exactly 6 digits. */
export function isOtpCode(code: string): boolean {
  return OTP_PATTERN.test(code);
}
