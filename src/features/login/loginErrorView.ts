/**
 * The login page's error texts (spec 001 section 8, verbatim). Pure: tested without a browser.
 */
import { ApiError } from '../../protocol/errors';
import { InvalidResponseError, NetworkError } from '../../platform/apiClient';
import { USER_NOT_INITIALIZED_TEXT } from '../account/createAuthService';

export const LOGIN_TEXTS = {
  notConfirmed: 'Your email is not yet verified.',
  codeMismatch: 'Your verification link is not the latest one sent.',
  notRecognised: 'Your login details are not recognised. Please check your email and password.',
  verified: 'Your email was successfully verified. Please enter your email and password to log in.',
  emailSent: 'Email sent!',
  resendEmail: 'Resend email',
  unavailable: 'Something went wrong, please try again later.',
  linkExpired: 'This link has expired.',
  linkInvalid: 'This link is not valid. Please check that you copied all of it.',
} as const;

export interface LoginErrorView {
  /** null: the error is not shown (spec: "message ends with 'Current status is CONFIRMED'"). */
  text: string | null;
  /** Offer the 'Resend email' link next to the text. */
  canResendVerification: boolean;
}

export function loginErrorView(error: unknown): LoginErrorView {
  const plain = (text: string | null): LoginErrorView => ({ text, canResendVerification: false });
  if (error instanceof Error && error.message.endsWith('Current status is CONFIRMED')) return plain(null);
  if (error instanceof ApiError) {
    switch (error.code) {
      case 'USER_NOT_CONFIRMED':
        return { text: LOGIN_TEXTS.notConfirmed, canResendVerification: true };
      case 'CODE_MISMATCH':
        return { text: LOGIN_TEXTS.codeMismatch, canResendVerification: true };
      case 'RATE_LIMITED':
      // The operator disabled the account (issue 20): the server's sentence says to contact them.
      case 'ACCOUNT_DISABLED':
      // SMS two-factor on a server that lost its SMS provider: the operator must reset it.
      case 'SMS_UNAVAILABLE':
      // The SMS provider did not take the code (issue 20): the server's sentence says to try again.
      case 'SMS_NOT_SENT':
        return plain(error.message);
      case 'EXPIRED':
        // Only an airdrop link's sign-in answers EXPIRED here (every membership it opened has ended).
        return plain(LOGIN_TEXTS.linkExpired);
      case 'MAINTENANCE':
      case 'INTERNAL':
        // Not a credentials problem: saying so would send the user chasing their password.
        return plain(LOGIN_TEXTS.unavailable);
      default:
        return plain(LOGIN_TEXTS.notRecognised);
    }
  }
  if (error instanceof NetworkError || error instanceof InvalidResponseError) return plain(LOGIN_TEXTS.unavailable);
  if (error instanceof Error && error.message === 'USER_NOT_INITIALIZED') return plain(USER_NOT_INITIALIZED_TEXT);
  if (error instanceof Error && error.message === 'INVALID_LINK') return plain(LOGIN_TEXTS.linkInvalid);
  return plain(LOGIN_TEXTS.notRecognised);
}
