import { expect, test } from 'bun:test';
import { seededRandom } from '../../../tests/helpers/seeded-random.ts';
import { createAnswerCache } from './answer-cache.ts';

test('an answer is served only for the version of rows it was computed from', () => {
  const cache = createAnswerCache({ maxBytes: 1000 });
  cache.set('run-1', '10:500', { points: [1, 2] }, 100);
  expect(cache.get('run-1', '10:500')).toEqual({ points: [1, 2] });
  // A new interval stored: another version, so the old answer is gone (not kept beside the new one).
  expect(cache.get('run-1', '11:501')).toBeUndefined();
  expect(cache.get('run-1', '10:500')).toBeUndefined();
  expect(cache.size).toEqual({ entries: 0, bytes: 0 });
});

test('bounded by bytes, the least recently used out first; an answer too large is not kept', () => {
  const cache = createAnswerCache({ maxBytes: 300, maxEntryBytes: 150 });
  cache.set('a', 'v', 'A', 100);
  cache.set('b', 'v', 'B', 100);
  cache.set('c', 'v', 'C', 100);
  expect(cache.get('a', 'v')).toBe('A'); // a is now the most recent
  cache.set('d', 'v', 'D', 100);
  expect(cache.get('b', 'v')).toBeUndefined();
  expect(['a', 'c', 'd'].map((key) => cache.get(key, 'v'))).toEqual(['A', 'C', 'D']);
  cache.set('huge', 'v', 'H', 151);
  expect(cache.get('huge', 'v')).toBeUndefined();
  expect(cache.size).toEqual({ entries: 3, bytes: 300 });
});

test('seeded sequences: the cache never answers a version other than the last one set, and never exceeds its bound', () => {
  for (let seed = 1; seed <= 30; seed++) {
    const random = seededRandom(seed);
    const cache = createAnswerCache({ maxBytes: 500, maxEntryBytes: 200 });
    const model = new Map<string, { version: string; value: number }>();
    for (let step = 0; step < 300; step++) {
      const key = `k${random.int(0, 9)}`;
      const version = `v${random.int(0, 3)}`;
      if (random.chance(0.5)) {
        const value = random.int(0, 1_000_000);
        cache.set(key, version, value, random.int(1, 250));
        model.set(key, { version, value });
      } else {
        const got = cache.get<number>(key, version);
        const known = model.get(key);
        // Evicted is allowed; a wrong version or value is not.
        if (got !== undefined) expect(known).toEqual({ version, value: got });
        if (known && known.version !== version) model.delete(key);
      }
      expect(cache.size.bytes).toBeLessThanOrEqual(500);
    }
  }
});
