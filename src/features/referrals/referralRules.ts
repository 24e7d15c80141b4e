/**
 * The Referral Reward page's e-mail rows (spec 001 section 5, Referral): each filled row must hold
 * an e-mail; empty rows are allowed; a new empty row appears once the last holds a valid e-mail,
 * and the list is capped to the rewards left.
 */
import { isValidEmail } from '../../domain/memberRules';

/** The rows after typing: one empty row more when the last is a valid e-mail and the cap allows it. */
export function growRows(rows: string[], cap: number): string[] {
  const last = rows.at(-1) ?? '';
  if (rows.length < cap && isValidEmail(last)) return [...rows, ''];
  return rows;
}

/** What 'Invite now' sends: the filled rows, trimmed and lower-cased, once each; null while a filled row is not an e-mail or none is filled. */
export function emailsToSend(rows: string[]): string[] | null {
  const filled = rows.map((row) => row.trim()).filter((row) => row.length > 0);
  if (filled.length === 0 || filled.some((row) => !isValidEmail(row))) return null;
  return [...new Set(filled.map((row) => row.toLowerCase()))];
}

/** The referral link: the host plus /signup/?referrerId={userReferralId} (spec 001 section 2). */
export function referralLink(origin: string, referralId: string): string {
  return `${origin}/signup/?referrerId=${encodeURIComponent(referralId)}`;
}
