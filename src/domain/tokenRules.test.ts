import { describe, expect, it } from 'vitest';
import { checkSendForm, formatExactU, formatU, hasRewardBadge, parseAmountU, SEND_TEXTS } from './tokenRules';

const ADDRESS = '654KyaguCVnaojCIaY-ZHqj7KOByyUwCMWi4mJKOhyw';
const OTHER = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ_-01234';
const context = { balance: 2_500_000n, canSend: true, ownAddress: ADDRESS };

describe('the $U figures (spec 002 section 9)', () => {
  it('shows millionths to 4 decimals, cut rather than rounded up', () => {
    expect(formatU('2000000')).toBe('2.0000');
    expect(formatU('1250000')).toBe('1.2500');
    expect(formatU('999999')).toBe('0.9999');
    expect(formatU('100')).toBe('0.0001');
    expect(formatU(1_234_567_800_000n)).toBe('1,234,567.8000');
    expect(formatU('999999999999999999')).toBe('999,999,999,999.9999');
  });

  it("shows '< 0.0001' under 0.0001 U, and nothing as 0.0000", () => {
    expect(formatU('1')).toBe('< 0.0001');
    expect(formatU('99')).toBe('< 0.0001');
    expect(formatU('0')).toBe('0.0000');
  });

  it('MAX writes the exact balance', () => {
    expect(formatExactU('2500000')).toBe('2.5');
    expect(formatExactU('1')).toBe('0.000001');
    expect(formatExactU('3000000')).toBe('3');
  });

  it('shows the Rewards dot for a balance over 100 millionths only', () => {
    expect(hasRewardBadge(null)).toBe(false);
    expect(hasRewardBadge('0')).toBe(false);
    expect(hasRewardBadge('100')).toBe(false);
    expect(hasRewardBadge('101')).toBe(true);
    expect(hasRewardBadge(5_000_000n)).toBe(true);
  });

  it('reads typed amounts in U as millionths (10^6), refusing more than 6 decimals', () => {
    expect(parseAmountU('1')).toBe(1_000_000n);
    expect(parseAmountU('0.75')).toBe(750_000n);
    expect(parseAmountU('.5')).toBe(500_000n);
    expect(parseAmountU(' 1,000.000001 ')).toBe(1_000_000_001n);
    expect(parseAmountU('0.0000001')).toBeNull();
    expect(parseAmountU('1e3')).toBeNull();
    expect(parseAmountU('-1')).toBeNull();
    expect(parseAmountU('.')).toBeNull();
    expect(parseAmountU('')).toBeNull();
    expect(parseAmountU('9999999999999')).toBeNull();
  });
});

describe('the Send $U form (spec 002 section 5)', () => {
  it('accepts a 43-character address and an amount within the balance', () => {
    const check = checkSendForm({ address: OTHER, amount: '0.75' }, context);
    expect(check).toMatchObject({ addressError: null, amountError: null, blocked: null, amount: 750_000n, canSubmit: true });
    expect(checkSendForm({ address: OTHER, amount: '2.5' }, context).canSubmit).toBe(true);
  });

  it("names a badly formed address with the spec's text", () => {
    for (const address of [OTHER.slice(1), `${OTHER}x`, `${OTHER.slice(1)}!`, `${OTHER.slice(1)} `.padEnd(44, 'x')]) {
      const check = checkSendForm({ address, amount: '1' }, context);
      expect(check.addressError, address).toBe(SEND_TEXTS.badAddress);
      expect(check.canSubmit).toBe(false);
    }
    expect(SEND_TEXTS.badAddress).toBe('Incorrect format for an Arweave wallet address.');
    expect(checkSendForm({ address: ADDRESS, amount: '1' }, context).addressError).toBe(SEND_TEXTS.ownAddress);
  });

  it("refuses more than the balance with 'Amount exceeds total balance.'", () => {
    const check = checkSendForm({ address: OTHER, amount: '2.500001' }, context);
    expect(check.amountError).toBe('Amount exceeds total balance.');
    expect(check.canSubmit).toBe(false);
    expect(checkSendForm({ address: OTHER, amount: 'ten' }, context).amountError).toBe(SEND_TEXTS.badAmount);
    expect(checkSendForm({ address: OTHER, amount: '0' }, context).amountError).toBe(SEND_TEXTS.zeroAmount);
  });

  it('keeps Send disabled while a field is empty, without an error for it', () => {
    expect(checkSendForm({ address: '', amount: '' }, context)).toMatchObject({ addressError: null, amountError: null, canSubmit: false });
    expect(checkSendForm({ address: OTHER, amount: '' }, context).canSubmit).toBe(false);
    expect(checkSendForm({ address: '', amount: '1' }, context).canSubmit).toBe(false);
  });

  it('disables Send under a balance of 0.0001 U, and when the plan does not allow sending', () => {
    const poor = checkSendForm({ address: OTHER, amount: '0.000099' }, { ...context, balance: 99n });
    expect(poor).toMatchObject({ blocked: SEND_TEXTS.underMinimum, canSubmit: false });
    expect(checkSendForm({ address: OTHER, amount: '0.0001' }, { ...context, balance: 100n }).canSubmit).toBe(true);
    const free = checkSendForm({ address: OTHER, amount: '1' }, { ...context, canSend: false });
    expect(free).toMatchObject({ blocked: SEND_TEXTS.notAllowed, canSubmit: false });
  });
});
