import { describe, expect, it } from 'vitest';
import { parsePlainSearch, searchString, stringifyPlainSearch } from './plainSearch';

describe('plain string search params', () => {
  it('keeps codes and ids as the strings in the link', () => {
    expect(parsePlainSearch('?uid=eyJlbWFpbCI6ImFAYi5jbyJ9&code=123456')).toEqual({
      uid: 'eyJlbWFpbCI6ImFAYi5jbyJ9',
      code: '123456',
    });
    expect(parsePlainSearch('code=1e5&flag=true')).toEqual({ code: '1e5', flag: 'true' });
  });

  it('round-trips a redirect path with its own query', () => {
    const search = stringifyPlainSearch({ redirect: '/account/security?tab=a&b=c', skip: undefined });
    expect(search).toBe('?redirect=%2Faccount%2Fsecurity%3Ftab%3Da%26b%3Dc');
    expect(parsePlainSearch(search)).toEqual({ redirect: '/account/security?tab=a&b=c' });
    expect(stringifyPlainSearch({})).toBe('');
  });

  it('reads non-empty strings only', () => {
    expect(searchString({ a: 'x', b: '', c: 3 }, 'a')).toBe('x');
    expect(searchString({ a: 'x', b: '', c: 3 }, 'b')).toBeUndefined();
    expect(searchString({ a: 'x', b: '', c: 3 }, 'c')).toBeUndefined();
  });
});
