/**
 * The airdrop form's rules (spec 001 section 5, "Invitation to a vault"): the expiry date typed as
 * DD/MM/YYYY, required and not in the past, valid to the end of that day in the owner's time
 * zone; the allowed storage as a share of the owner's available storage or a figure in MB or GB.
 * Units are decimal (1 MB = 1,000,000 bytes), as every storage figure in the app (formatting.ts).
 */

export const DATE_REQUIRED_TEXT = 'Expiry date is required.';
export const DATE_FORMAT_TEXT = 'Use the format DD/MM/YYYY.';
export const DATE_IN_PAST_TEXT = 'Date cannot be in the past.';

export const STORAGE_UNITS = ['MB', 'GB'] as const;
export type StorageUnit = (typeof STORAGE_UNITS)[number];
const BYTES_PER_UNIT: Record<StorageUnit, number> = { MB: 1_000_000, GB: 1_000_000_000 };

/** The slider's default: all of the owner's available storage. */
export const DEFAULT_STORAGE_PERCENT = 100;

const DATE_PATTERN = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/** A calendar day; months are 1-12. */
export interface CalendarDay {
  day: number;
  month: number;
  year: number;
}

/** The day typed as DD/MM/YYYY, or null for another format or a day that does not exist (31/02). */
export function parseDayMonthYear(text: string): CalendarDay | null {
  const match = DATE_PATTERN.exec(text.trim());
  if (!match) return null;
  const day = Number(match[1]);
  const month = Number(match[2]);
  const year = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || year < 1970) return null;
  // Day 0 of the next month is the last day of this one (local time; the day count is the same everywhere).
  const daysInMonth = new Date(year, month, 0).getDate();
  if (day > daysInMonth) return null;
  return { day, month, year };
}

/**
 * The last millisecond of `day` in the device's time zone: the link works until that day is over
 * where the owner chose it (midnight is the next day's first moment, so one millisecond before).
 */
export function endOfDay(day: CalendarDay): number {
  return new Date(day.year, day.month - 1, day.day + 1, 0, 0, 0, 0).getTime() - 1;
}

/** Either the expiry (ms, end of the chosen day) or the message the date field shows. */
export type ExpiryCheck = { ok: true; expiresAt: number } | { ok: false; error: string };

/** Checks the typed date against `now` (ms): today is allowed, since it lasts until midnight. */
export function checkExpiryDate(text: string, now: number): ExpiryCheck {
  if (text.trim() === '') return { ok: false, error: DATE_REQUIRED_TEXT };
  const day = parseDayMonthYear(text);
  if (!day) return { ok: false, error: DATE_FORMAT_TEXT };
  const expiresAt = endOfDay(day);
  if (expiresAt < now) return { ok: false, error: DATE_IN_PAST_TEXT };
  return { ok: true, expiresAt };
}

/** Whole bytes for `amount` of `unit`; negative or non-finite amounts are 0. */
export function unitsToBytes(amount: number, unit: StorageUnit): number {
  if (!Number.isFinite(amount) || amount <= 0) return 0;
  return Math.round(amount * BYTES_PER_UNIT[unit]);
}

/** `bytes` in `unit`, rounded to two decimals for the number field. */
export function bytesToUnits(bytes: number, unit: StorageUnit): number {
  return Math.round((Math.max(0, bytes) / BYTES_PER_UNIT[unit]) * 100) / 100;
}

/** The slider's share (0-100, clamped) of `available` bytes, rounded down to whole bytes. */
export function percentToBytes(percent: number, available: number): number {
  if (!Number.isFinite(percent) || available <= 0) return 0;
  const clamped = Math.min(100, Math.max(0, percent));
  return Math.floor((clamped / 100) * available);
}

/** The slider position for `bytes` of `available` (0-100, whole percent). */
export function bytesToPercent(bytes: number, available: number): number {
  if (available <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((bytes / available) * 100)));
}
