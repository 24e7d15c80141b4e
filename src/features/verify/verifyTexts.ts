/** The two-factor page's texts (spec 001 sections 2 and 8, verbatim where quoted). */
import type { MfaType } from '../../protocol/auth';

export const VERIFY_TEXTS = {
  title: 'Two-factor authentication',
  sms: 'Enter your 6 digit code below.',
  wrongCode: 'Wrong code. Please check and try again.',
  resendCode: 'Resend code',
  codeSent: 'Code sent!',
  authenticate: 'Authenticate',
  recover: 'Recover your account',
  expired: 'This sign-in has expired. Please log in again.',
  unavailable: 'Something went wrong, please try again later.',
} as const;

/** The instruction under the title: SMS, or 'Enter the 6-digit code from: {device} below'. */
export function verifyInstruction(mfaType: MfaType, device: string | null): string {
  if (mfaType === 'SMS') return VERIFY_TEXTS.sms;
  return `Enter the 6-digit code from: ${device ?? 'your authenticator app'} below`;
}
