/** The verified-token cache: bounded, oldest evicted first, each entry gone at its own expiry. */
import { describe, expect, test } from 'bun:test';
import { createVerifiedTokenCache } from './verified-token-cache.ts';

describe('createVerifiedTokenCache', () => {
  test('keeps an entry until its expiry', () => {
    let now = 1000;
    const cache = createVerifiedTokenCache<string>(10, () => now);
    cache.set('a', 'A', 2000);
    expect(cache.get('a')).toBe('A');
    now = 1999;
    expect(cache.get('a')).toBe('A');
    now = 2000;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test('never stores an entry that has already expired', () => {
    const cache = createVerifiedTokenCache<string>(10, () => 5000);
    cache.set('late', 'x', 5000);
    expect(cache.size).toBe(0);
  });

  test('evicts the oldest entry when full', () => {
    const cache = createVerifiedTokenCache<number>(3, () => 0);
    for (const [index, key] of ['a', 'b', 'c', 'd'].entries()) cache.set(key, index, 10);
    expect(cache.size).toBe(3);
    expect(cache.get('a')).toBeUndefined();
    expect([cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([1, 2, 3]);
  });
});
