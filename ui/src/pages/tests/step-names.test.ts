/** Step names of an http test's script, as endpoint suggestions. */
import { expect, test } from 'bun:test';
import { stepNames } from './step-names';

test('the names of the steps, unquoted, once each; none for other tools', () => {
  const script = ['steps:', '  - name: health', '    method: GET', "  - name: 'log in'  # the form", '  - name: "health"', '  - method: GET', ''].join('\n');
  expect(stepNames('http', script)).toEqual(['health', 'log in']);
  expect(stepNames('k6', script)).toEqual([]);
  expect(stepNames('http', '')).toEqual([]);
});
