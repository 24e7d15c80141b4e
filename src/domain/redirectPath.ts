/**
 * The origin a protected route remembers in `/login?redirect=` (spec 001 section 2). Only a
 * same-origin path is followed after login, so a crafted link cannot send the user elsewhere.
 */

export const DEFAULT_SIGNED_IN_PATH = '/vaults/active';

/** Paths that make no sense to come back to after logging in. */
const NOT_A_DESTINATION = /^\/(login|verify|signup|recover|maintenance|404|418)(\/|\?|#|$)/;

/** `value` when it is a same-origin absolute path worth returning to, otherwise /vaults/active. */
export function safeRedirectPath(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2_000) return DEFAULT_SIGNED_IN_PATH;
  // "/x" only: not "//host", not "/\host" (browsers read a backslash as a slash), no scheme.
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return DEFAULT_SIGNED_IN_PATH;
  if (/[\u0000-\u001f]/.test(value)) return DEFAULT_SIGNED_IN_PATH;
  if (NOT_A_DESTINATION.test(value)) return DEFAULT_SIGNED_IN_PATH;
  return value;
}

/**
 * Splits an airdrop link's `wallet` parameter off a same-origin path (spec 000 section 2: a
 * protected route opened with ?wallet= keeps it as an airdrop location): the wallet goes to the
 * login page, the rest of the path is where to go once signed in.
 */
export function splitWalletParam(href: string): { wallet: string | null; path: string } {
  const url = new URL(href, 'http://cairn.invalid');
  const wallet = url.searchParams.get('wallet');
  url.searchParams.delete('wallet');
  return { wallet: wallet || null, path: `${url.pathname}${url.search}${url.hash}` };
}
