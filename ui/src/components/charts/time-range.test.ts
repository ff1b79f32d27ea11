import { expect, test } from 'bun:test';
import { timeRange } from './time-range';

test('a span is kept; a single instant gets a minute either side; no data stays unset', () => {
  expect(timeRange(1_800_000_000, 1_800_000_600)).toEqual([1_800_000_000, 1_800_000_600]);
  expect(timeRange(1_800_000_000, 1_800_000_000)).toEqual([1_799_999_940, 1_800_000_060]);
  expect(timeRange(null, null)).toEqual([null, null]);
});
