import { describe, expect, it } from 'vitest';
import { ByteLru } from './ByteLru';

describe('ByteLru', () => {
  it('evicts the least recently used entries past the byte budget', () => {
    const lru = new ByteLru<string, string>(100);
    lru.set('a', 'A', 40);
    lru.set('b', 'B', 40);
    expect(lru.get('a')).toBe('A'); // a is now the most recent
    lru.set('c', 'C', 40);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe('A');
    expect(lru.get('c')).toBe('C');
    expect(lru.bytes).toBe(80);
  });

  it('does not keep an entry larger than the budget', () => {
    const lru = new ByteLru<string, string>(100);
    lru.set('a', 'A', 10);
    lru.set('huge', 'H', 101);
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.get('a')).toBe('A');
  });

  it('replaces an entry and its size', () => {
    const lru = new ByteLru<string, string>(100);
    lru.set('a', 'A', 60);
    lru.set('a', 'A2', 10);
    expect(lru.bytes).toBe(10);
    expect(lru.get('a')).toBe('A2');
  });
});
