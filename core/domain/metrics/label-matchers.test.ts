/** Label matchers: Prometheus' anchoring and RE2 syntax, and patterns that backtrack for ever elsewhere cost next to nothing here. */
import { expect, test } from 'bun:test';
import { compileMatcher, matchesAll, parseFilterValue } from './label-matchers.ts';

const uuids = Array.from({ length: 200 }, (_, i) => `0000${i.toString(16).padStart(4, '0')}-0000-4000-8000-000000000000`);

test('regexes are fully anchored, `.` matches a newline (Prometheus compiles ^(?s:...)$), equality and negation as written', () => {
  const m = (label: string, raw: string) => compileMatcher(parseFilterValue(label, raw));
  expect(m('run', '~abc').matches('abc')).toBe(true);
  expect(m('run', '~abc').matches('xabcx')).toBe(false);
  expect(m('run', '~a.c').matches('a\nc')).toBe(true);
  expect(m('run', '!~a.*').matches('abc')).toBe(false);
  expect(m('run', '!~a.*').matches(undefined)).toBe(true);
  expect(m('run', 'abc').matches('abc')).toBe(true);
  expect(m('run', '!abc').matches('abd')).toBe(true);
  expect(m('run', '~').matches(undefined)).toBe(true); // an absent label is the empty string
  expect(matchesAll([m('run', '~a.*'), m('machine', '!b')], { run: 'ax', machine: 'c' })).toBe(true);
});

test('RE2 refuses what it cannot run in linear time, with a 400 that names the syntax', () => {
  for (const pattern of ['(a)\\1', '(?=x)', '(?<!a)b', 'a{1001}', '(unclosed']) {
    expect(() => compileMatcher({ label: 'run', op: '=~', value: pattern })).toThrow(/bad regular expression for run: .*\(RE2 syntax, as in Prometheus\)/);
  }
  expect(() => compileMatcher({ label: 'run', op: '=~', value: 'a'.repeat(1001) })).toThrow(/longer than 1000 characters/);
});

test('catastrophic patterns finish on values a backtracking engine could never get through', () => {
  // A backtracking engine needs seconds for `(.*){30}Z` against 30 characters and grows exponentially with length;
  // these values are 4,000 characters long, so the test finishes (inside its timeout) only on a linear-time engine.
  // No CPU or wall-clock bound here: the outcome is finishing at all, with the right answers.
  const long = 'a'.repeat(4000);
  for (const pattern of ['(.*){30}Z', '(a|aa)*(a|aa)*b', '(x+x+)+y', '((a*)*)*$b']) {
    const matcher = compileMatcher({ label: 'run', op: '=~', value: pattern });
    let matched = 0;
    for (const value of uuids) if (matcher.matches(value + long)) matched++;
    expect(matched, pattern).toBe(0);
  }
  // And a value the pattern does match is still found: linear time, same answers.
  expect(compileMatcher({ label: 'run', op: '=~', value: '(.*){30}Z' }).matches(long + 'Z')).toBe(true);
  expect(compileMatcher({ label: 'run', op: '=~', value: '(a|aa)*(a|aa)*b' }).matches(long + 'b')).toBe(true);
});
