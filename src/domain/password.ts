/**
 * Password rules of the sign-up, recovery and account-security forms (spec 001 sections 5 and 9).
 * Pure: the strength score comes from `passwordStrength.ts`, which loads zxcvbn lazily.
 */
import { EMAIL_PATTERN } from '../protocol/primitives';

/** zxcvbn's 0-4 scale. */
export type PasswordScore = 0 | 1 | 2 | 3 | 4;

export const STRONG_SCORE = 4;
export const SIGNUP_PASSWORD_MIN = 12;
/** Recovery reset: the length must be above this (spec: "length above 8"). */
export const RESET_PASSWORD_ABOVE = 8;
/** Reveal phrase and the new password of change password. */
export const ACCOUNT_PASSWORD_MIN = 8;
/** The live check of the current password starts at this length. */
export const CURRENT_PASSWORD_CHECK_MIN = 6;

/**
 * Clamps zxcvbn's score and applies the spec's rule that a 4 is reduced to 3 under 12
 * characters: short passwords never read 'Strong' even if zxcvbn rates them so.
 */
export function adjustScore(rawScore: number, password: string): PasswordScore {
  const clamped = Math.max(0, Math.min(4, Math.floor(rawScore))) as PasswordScore;
  return clamped === 4 && password.length < SIGNUP_PASSWORD_MIN ? 3 : clamped;
}

export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email.trim());
}

export function hasEdgeWhitespace(password: string): boolean {
  return password !== password.trim();
}

/** The sign-up field flags an error once it holds 2 or more characters with edge whitespace. */
export function showsEdgeWhitespaceError(password: string): boolean {
  return password.length >= 2 && hasEdgeWhitespace(password);
}

export const EDGE_WHITESPACE_ERROR = 'Your password cannot start or end with a space.';

export type StrengthLevel = 'weak' | 'fair' | 'nearly' | 'strong';

export function strengthLevel(score: PasswordScore): StrengthLevel {
  if (score <= 1) return 'weak';
  if (score === 2) return 'fair';
  if (score === 3) return 'nearly';
  return 'strong';
}

export const STRENGTH_LABELS: Record<StrengthLevel, string> = {
  weak: 'Weak',
  fair: 'Fair',
  nearly: 'Nearly there',
  strong: 'Strong',
};

export const PASSWORD_TIPS = {
  uncommonWords: 'Use a few uncommon words',
  noSymbolsNeeded: 'No need for symbols, digits or uppercase letters',
  oneMoreWord: 'Add one more uncommon word',
  minLength: 'Use at least 12 characters',
} as const;

export const PASSWORD_MANAGER_TIP =
  'We recommend a password manager to create and remember a strong password for you.';

/** The tips that help with this password, most useful first; none once it is strong. */
export function strengthTips(password: string, score: PasswordScore): string[] {
  const tips: string[] = [];
  const level = strengthLevel(score);
  if (level === 'weak') tips.push(PASSWORD_TIPS.uncommonWords, PASSWORD_TIPS.noSymbolsNeeded);
  else if (level !== 'strong') tips.push(PASSWORD_TIPS.oneMoreWord);
  if (password.length < SIGNUP_PASSWORD_MIN) tips.push(PASSWORD_TIPS.minLength);
  return tips;
}

export interface SignupInput {
  email: string;
  password: string;
  /** null while the score is being computed. */
  score: PasswordScore | null;
  acceptTerms: boolean;
  withdrawalRight: boolean;
}

/** Sign-up password: at least 12 characters, no edge whitespace, score at least 4. */
export function isSignupPasswordValid(password: string, score: PasswordScore | null): boolean {
  return (
    password.length >= SIGNUP_PASSWORD_MIN &&
    !hasEdgeWhitespace(password) &&
    score !== null &&
    score >= STRONG_SCORE
  );
}

/** Sign-up's Next: every rule holds. */
export function canSubmitSignup(input: SignupInput): boolean {
  return (
    isValidEmail(input.email) &&
    isSignupPasswordValid(input.password, input.score) &&
    input.acceptTerms &&
    input.withdrawalRight
  );
}

/** Recovery reset: length above 8 and score at least 4. */
export function canResetPassword(password: string, score: PasswordScore | null): boolean {
  return password.length > RESET_PASSWORD_ABOVE && score !== null && score >= STRONG_SCORE;
}

export function canRevealPhrase(password: string): boolean {
  return password.length >= ACCOUNT_PASSWORD_MIN;
}

/** Whether the live current-password check should run for this input. */
export function shouldCheckCurrentPassword(password: string): boolean {
  return password.length >= CURRENT_PASSWORD_CHECK_MIN;
}

export interface ChangePasswordInput {
  currentPassword: string;
  /** The live check confirmed `currentPassword` (and it has not changed since). */
  isCurrentConfirmed: boolean;
  newPassword: string;
  isLoading: boolean;
}

/** Change password's submit: current confirmed, new at least 8 and different, nothing loading. */
export function canChangePassword(input: ChangePasswordInput): boolean {
  return (
    input.isCurrentConfirmed &&
    input.newPassword.length >= ACCOUNT_PASSWORD_MIN &&
    input.newPassword !== input.currentPassword &&
    !input.isLoading
  );
}
