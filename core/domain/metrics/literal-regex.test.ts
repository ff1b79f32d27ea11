/** The literal shortcut agrees with RE2 (anchored, dot matching newlines) on every pattern it takes, over seeded random patterns and values. */
import { expect, test } from 'bun:test';
import { RE2JS } from 're2js';
import { seededRandom } from '../../../tests/helpers/seeded-random.ts';
import { literalRegex } from './literal-regex.ts';

test('the shapes dashboards write are taken; classes, groups, repeats and escapes such as \\d are left to RE2', () => {
  for (const pattern of ['', '.*', 'abc', 'abc.*', '.*abc', '.*abc.*', 'a|b|c', 'a.*|.*b|c', 'a\\.b', '\\|', 'é.*', '.*.*']) {
    expect(literalRegex(pattern), pattern).not.toBeNull();
  }
  for (const pattern of ['a.b', '.+', 'a*', '[ab]', '(a)', 'a{2}', '\\d', '\\', 'a$', '^a', '(?i)a', 'a.*b']) {
    expect(literalRegex(pattern), pattern).toBeNull();
  }
});

test('agrees with RE2 on 20,000 seeded random patterns and values', () => {
  const random = seededRandom(20261126);
  const tokens = ['a', 'b', '-', '.*', '|', '\\.', '\\|', '.', '*', '\\*', 'é', '\n'];
  const values = ['', 'a', 'b', 'ab', 'ba', 'a.b', 'a|b', '.', '*', 'a*b', 'é', 'aé\nb', '\n', 'aaa', '-a-', 'b.a'];
  let taken = 0;
  for (let i = 0; i < 20_000; i++) {
    const pattern = Array.from({ length: random.int(0, 6) }, () => random.pick(tokens)).join('');
    const literal = literalRegex(pattern);
    if (!literal) continue;
    taken++;
    const re2 = RE2JS.compile(pattern, RE2JS.DOTALL);
    const value = random.chance(0.5) ? random.pick(values) : Array.from({ length: random.int(0, 5) }, () => random.pick(['a', 'b', '.', '|', '*', '\n', 'é'])).join('');
    expect(literal(value), `${JSON.stringify(pattern)} on ${JSON.stringify(value)} (seed ${random.seed})`).toBe(re2.testExact(value));
  }
  // The comparison covered a real share of the patterns, not only the ones RE2 is asked about.
  expect(taken).toBeGreaterThan(2_000);
});
