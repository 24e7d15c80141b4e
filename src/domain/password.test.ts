import { describe, expect, it } from 'vitest';
import {
  adjustScore,
  canChangePassword,
  canResetPassword,
  canRevealPhrase,
  canSubmitSignup,
  isSignupPasswordValid,
  isValidEmail,
  PASSWORD_TIPS,
  shouldCheckCurrentPassword,
  showsEdgeWhitespaceError,
  STRENGTH_LABELS,
  strengthLevel,
  strengthTips,
  type SignupInput,
} from './password';
import { emailUserInputs, scorePassword } from './passwordStrength';

const STRONG = 'glacier pumpkin orbit lantern';

describe('strength score', () => {
  it('reduces a 4 to 3 under 12 characters', () => {
    expect(adjustScore(4, 'x'.repeat(11))).toBe(3);
    expect(adjustScore(4, 'x'.repeat(12))).toBe(4);
    expect(adjustScore(3, 'short')).toBe(3);
  });

  it('maps scores to the four levels', () => {
    expect([0, 1, 2, 3, 4].map((s) => STRENGTH_LABELS[strengthLevel(s as 0)])).toEqual([
      'Weak',
      'Weak',
      'Fair',
      'Nearly there',
      'Strong',
    ]);
  });

  it('rates a common password weak and a few uncommon words strong', async () => {
    expect(await scorePassword('password123')).toBeLessThanOrEqual(1);
    expect(await scorePassword(STRONG)).toBe(4);
  });

  it('rates a strong password under 12 characters at most 3', async () => {
    expect(await scorePassword('xQ9#vL2!pZ')).toBeLessThanOrEqual(3);
  });

  it('counts the e-mail as a known word', async () => {
    const inputs = emailUserInputs('Glacier.Pumpkin@example.com');
    expect(await scorePassword('glacierpumpkin', inputs)).toBeLessThan(await scorePassword('glacierpumpkin'));
  });
});

describe('tips', () => {
  it('suggests uncommon words and length for a weak short password', () => {
    expect(strengthTips('abc', 0)).toEqual([
      PASSWORD_TIPS.uncommonWords,
      PASSWORD_TIPS.noSymbolsNeeded,
      PASSWORD_TIPS.minLength,
    ]);
  });
  it('suggests one more word when nearly there', () => {
    expect(strengthTips('glacier pumpkin', 3)).toEqual([PASSWORD_TIPS.oneMoreWord]);
  });
  it('has no tips once strong', () => {
    expect(strengthTips(STRONG, 4)).toEqual([]);
  });
});

describe('sign-up rules', () => {
  const valid: SignupInput = {
    email: 'ada@example.com',
    password: STRONG,
    score: 4,
    acceptTerms: true,
    withdrawalRight: true,
  };

  it('enables Next only when every rule holds', () => {
    expect(canSubmitSignup(valid)).toBe(true);
    expect(canSubmitSignup({ ...valid, email: 'ada@example' })).toBe(false);
    expect(canSubmitSignup({ ...valid, email: 'ada example@x.com' })).toBe(false);
    expect(canSubmitSignup({ ...valid, score: 3 })).toBe(false);
    expect(canSubmitSignup({ ...valid, score: null })).toBe(false);
    expect(canSubmitSignup({ ...valid, acceptTerms: false })).toBe(false);
    expect(canSubmitSignup({ ...valid, withdrawalRight: false })).toBe(false);
  });

  it('needs at least 12 characters and no edge whitespace', () => {
    expect(isSignupPasswordValid('x'.repeat(11), 4)).toBe(false);
    expect(isSignupPasswordValid('x'.repeat(12), 4)).toBe(true);
    expect(isSignupPasswordValid(` ${STRONG}`, 4)).toBe(false);
    expect(isSignupPasswordValid(`${STRONG}\t`, 4)).toBe(false);
  });

  it('flags edge whitespace from 2 characters on', () => {
    expect(showsEdgeWhitespaceError(' ')).toBe(false);
    expect(showsEdgeWhitespaceError(' a')).toBe(true);
    expect(showsEdgeWhitespaceError('a ')).toBe(true);
    expect(showsEdgeWhitespaceError('a b')).toBe(false);
  });

  it('accepts a simple e-mail with surrounding spaces', () => {
    expect(isValidEmail(' ada@example.com ')).toBe(true);
    expect(isValidEmail('ada@')).toBe(false);
  });
});

describe('recovery reset rule', () => {
  it('needs a length above 8 and a score of 4', () => {
    expect(canResetPassword('x'.repeat(8), 4)).toBe(false);
    expect(canResetPassword('x'.repeat(9), 4)).toBe(true);
    expect(canResetPassword('x'.repeat(20), 3)).toBe(false);
  });
});

describe('account security rules', () => {
  it('reveal phrase needs at least 8 characters', () => {
    expect(canRevealPhrase('1234567')).toBe(false);
    expect(canRevealPhrase('12345678')).toBe(true);
  });

  it('checks the current password live from 6 characters', () => {
    expect(shouldCheckCurrentPassword('12345')).toBe(false);
    expect(shouldCheckCurrentPassword('123456')).toBe(true);
  });

  it('enables change password only when confirmed, long enough, different and idle', () => {
    const ok = { currentPassword: 'old-password', isCurrentConfirmed: true, newPassword: 'new-password', isLoading: false };
    expect(canChangePassword(ok)).toBe(true);
    expect(canChangePassword({ ...ok, isCurrentConfirmed: false })).toBe(false);
    expect(canChangePassword({ ...ok, newPassword: '1234567' })).toBe(false);
    expect(canChangePassword({ ...ok, newPassword: ok.currentPassword })).toBe(false);
    expect(canChangePassword({ ...ok, isLoading: true })).toBe(false);
  });
});

describe('e-mail as user input', () => {
  it('lists the e-mail, its local part and the local part’s words', () => {
    expect(emailUserInputs(' Ada.Lovelace@Example.com ')).toEqual([
      'ada.lovelace@example.com',
      'ada.lovelace',
      'adalovelace',
      'ada',
      'lovelace',
    ]);
    expect(emailUserInputs('')).toEqual([]);
  });
});
