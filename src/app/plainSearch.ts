/**
 * Search params as plain strings. The router's default JSON-parses every value, which would turn
 * a link's `code=123456` into a number and `code=1e5` into 100000; every search value Cairn
 * reads (redirect, uid, code, referrerId, term, membershipId) is a string.
 */

export function parsePlainSearch(searchStr: string): Record<string, string> {
  const params = new URLSearchParams(searchStr.startsWith('?') ? searchStr.slice(1) : searchStr);
  const result: Record<string, string> = {};
  for (const [key, value] of params) result[key] = value;
  return result;
}

export function stringifyPlainSearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null) continue;
    params.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A string search value, or undefined. */
export function searchString(search: Record<string, unknown>, key: string): string | undefined {
  const value = search[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
