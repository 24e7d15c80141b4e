import { describe, expect, it } from 'vitest';
import { ApiError } from '../../protocol/errors';
import { NetworkError } from '../../platform/apiClient';
import { LOGIN_TEXTS, loginErrorView } from './loginErrorView';

describe('login error texts (spec 001 section 8)', () => {
  it('unconfirmed e-mail offers to resend', () => {
    expect(loginErrorView(new ApiError('USER_NOT_CONFIRMED'))).toEqual({
      text: 'Your email is not yet verified.',
      canResendVerification: true,
    });
  });

  it('a stale verification link offers to resend', () => {
    expect(loginErrorView(new ApiError('CODE_MISMATCH'))).toEqual({
      text: 'Your verification link is not the latest one sent.',
      canResendVerification: true,
    });
  });

  it("shows the server's message when rate limited", () => {
    expect(loginErrorView(new ApiError('RATE_LIMITED', 'Too many attempts, try again in 5 minutes.')).text).toBe(
      'Too many attempts, try again in 5 minutes.',
    );
  });

  it("hides a message ending with 'Current status is CONFIRMED'", () => {
    expect(loginErrorView(new ApiError('CONFLICT', 'User cannot be confirmed. Current status is CONFIRMED')).text).toBeNull();
  });

  it('says the login details are not recognised for anything else', () => {
    const text = 'Your login details are not recognised. Please check your email and password.';
    expect(loginErrorView(new ApiError('INVALID_CREDENTIALS')).text).toBe(text);
    expect(loginErrorView(new ApiError('VALIDATION_FAILED')).text).toBe(text);
    expect(loginErrorView(new Error('boom')).text).toBe(text);
  });

  it('does not blame the password when the server cannot be reached', () => {
    expect(loginErrorView(new NetworkError('offline')).text).toBe(LOGIN_TEXTS.unavailable);
    expect(loginErrorView(new ApiError('INTERNAL')).text).toBe(LOGIN_TEXTS.unavailable);
  });

  it("shows 'User not initialized' when the account's keys do not match", () => {
    expect(loginErrorView(new Error('USER_NOT_INITIALIZED')).text).toBe('User not initialized');
  });

  it('says an airdrop link has expired, or is not valid', () => {
    expect(loginErrorView(new ApiError('EXPIRED', 'This link has expired.')).text).toBe('This link has expired.');
    expect(loginErrorView(new Error('INVALID_LINK')).text).toBe(LOGIN_TEXTS.linkInvalid);
  });

  it("says a disabled account is disabled, not that the password is wrong", () => {
    const message = 'This account has been disabled. Please contact the operator of this server.';
    expect(loginErrorView(new ApiError('ACCOUNT_DISABLED', message)).text).toBe(message);
    const sms = 'This account uses SMS two-factor, but this server cannot send text messages. Please contact the operator of this server.';
    expect(loginErrorView(new ApiError('SMS_UNAVAILABLE', sms)).text).toBe(sms);
  });

  it('says a code that could not be texted could not be texted, not that the password is wrong (issue 20)', () => {
    const message = 'We could not text your code just now. Please try again in a few minutes, or recover your account.';
    expect(loginErrorView(new ApiError('SMS_NOT_SENT', message)).text).toBe(message);
  });
});
