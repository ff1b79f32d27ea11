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

test('catastrophic patterns run in linear time: well under 50 ms of CPU over 200 label values each', () => {
  for (const pattern of ['(.*){30}Z', '(a|aa)*(a|aa)*b', '(x+x+)+y', '((a*)*)*$b']) {
    // CPU time, not wall time: the cost to this process whatever else the machine runs. On the JavaScript engine the
    // first of these took seconds per value.
    const before = process.cpuUsage();
    const matcher = compileMatcher({ label: 'run', op: '=~', value: pattern });
    let matched = 0;
    for (const value of uuids) if (matcher.matches(value + 'a'.repeat(30))) matched++;
    const used = process.cpuUsage(before);
    expect(matched, pattern).toBe(0);
    expect((used.user + used.system) / 1000, pattern).toBeLessThan(50);
  }
});
