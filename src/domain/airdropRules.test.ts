import { describe, expect, it } from 'vitest';
import {
  bytesToPercent,
  bytesToUnits,
  checkExpiryDate,
  DATE_FORMAT_TEXT,
  DATE_IN_PAST_TEXT,
  DATE_REQUIRED_TEXT,
  endOfDay,
  parseDayMonthYear,
  percentToBytes,
  unitsToBytes,
} from './airdropRules';

/** Noon on a local calendar day. */
function localNoon(year: number, month: number, day: number): number {
  return new Date(year, month - 1, day, 12).getTime();
}

describe('airdrop expiry date (spec 001 section 5)', () => {
  it('reads DD/MM/YYYY and refuses other formats and days that do not exist', () => {
    expect(parseDayMonthYear('05/03/2027')).toEqual({ day: 5, month: 3, year: 2027 });
    expect(parseDayMonthYear(' 29/02/2028 ')).toEqual({ day: 29, month: 2, year: 2028 });
    expect(parseDayMonthYear('29/02/2027')).toBeNull();
    expect(parseDayMonthYear('31/04/2027')).toBeNull();
    expect(parseDayMonthYear('2027-03-05')).toBeNull();
    expect(parseDayMonthYear('03/13/2027')).toBeNull();
    expect(parseDayMonthYear('5/3/2027')).toBeNull();
  });

  it('lasts to the last millisecond of the chosen day in local time', () => {
    const end = endOfDay({ day: 31, month: 12, year: 2026 });
    const d = new Date(end);
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds()]).toEqual([
      2026, 11, 31, 23, 59, 59, 999,
    ]);
    expect(new Date(end + 1).getDate()).toBe(1);
  });

  it('is required, must be a real date and not in the past; today is allowed', () => {
    const now = localNoon(2026, 11, 22);
    expect(checkExpiryDate('', now)).toEqual({ ok: false, error: DATE_REQUIRED_TEXT });
    expect(checkExpiryDate('22-11-2026', now)).toEqual({ ok: false, error: DATE_FORMAT_TEXT });
    expect(checkExpiryDate('21/11/2026', now)).toEqual({ ok: false, error: DATE_IN_PAST_TEXT });
    expect(checkExpiryDate('22/11/2026', now)).toEqual({ ok: true, expiresAt: endOfDay({ day: 22, month: 11, year: 2026 }) });
    const late = new Date(2026, 10, 22, 23, 59, 59, 999).getTime();
    expect(checkExpiryDate('22/11/2026', late).ok).toBe(true);
    expect(checkExpiryDate('22/11/2026', late + 1)).toEqual({ ok: false, error: DATE_IN_PAST_TEXT });
  });
});

describe('airdrop allowed storage (spec 001 section 5)', () => {
  it('converts MB and GB in decimal units, as every storage figure', () => {
    expect(unitsToBytes(1, 'MB')).toBe(1_000_000);
    expect(unitsToBytes(1.5, 'GB')).toBe(1_500_000_000);
    expect(unitsToBytes(0, 'GB')).toBe(0);
    expect(unitsToBytes(-3, 'MB')).toBe(0);
    expect(unitsToBytes(Number.NaN, 'MB')).toBe(0);
    expect(bytesToUnits(250_000_000, 'GB')).toBe(0.25);
    expect(bytesToUnits(1_234_567, 'MB')).toBe(1.23);
  });

  it('turns the slider share of the available storage into bytes and back', () => {
    expect(percentToBytes(100, 1_000_000_000)).toBe(1_000_000_000);
    expect(percentToBytes(0, 1_000_000_000)).toBe(0);
    expect(percentToBytes(33, 1_000)).toBe(330);
    expect(percentToBytes(150, 1_000)).toBe(1_000);
    expect(percentToBytes(50, 0)).toBe(0);
    expect(bytesToPercent(500, 1_000)).toBe(50);
    expect(bytesToPercent(5_000, 1_000)).toBe(100);
    expect(bytesToPercent(5, 0)).toBe(0);
  });
});
