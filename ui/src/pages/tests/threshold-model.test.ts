/** The thresholds editor's model: rows to the API's thresholds and back, units, wording and checks. */
import { describe, expect, test } from 'bun:test';
import type { Threshold } from '../../api/types';
import {
  describeThreshold,
  formatActual,
  formatLimit,
  newRow,
  rowProblems,
  rowsFromThresholds,
  sameThresholds,
  thresholdsFromRows,
} from './threshold-model';

const saved: Threshold[] = [
  { metric: 'p95', endpoint: 'health', op: '<', value: 500 },
  { metric: 'error_rate', op: '<=', value: 0.015, abort: true },
  { metric: 'requests_per_sec', op: '>=', value: 100 },
];

describe('threshold rows', () => {
  test('an error rate is typed as a percentage and sent as a fraction', () => {
    const rows = rowsFromThresholds(saved);
    expect(rows.map((r) => r.value)).toEqual(['500', '1.5', '100']);
    expect(rows[1]!.abort).toBe(true);
    expect(rows[0]!.endpoint).toBe('health');
    expect(thresholdsFromRows(rows)).toEqual(saved);
  });
  test('a blank endpoint is left out, abort only when checked, the endpoint trimmed', () => {
    const row = { ...newRow(), metric: 'p99' as const, endpoint: '  ', value: '250' };
    expect(thresholdsFromRows([row])).toEqual([{ metric: 'p99', op: '<', value: 250 }]);
    expect(thresholdsFromRows([{ ...row, endpoint: ' login ', abort: true }])).toEqual([{ metric: 'p99', endpoint: 'login', op: '<', value: 250, abort: true }]);
    expect(thresholdsFromRows([{ ...newRow(), metric: 'error_rate', value: '0.1' }])[0]!.value).toBe(0.001);
  });
  test('sameness ignores how the rows were built', () => {
    expect(sameThresholds(saved, thresholdsFromRows(rowsFromThresholds(saved)))).toBe(true);
    expect(sameThresholds(saved, saved.slice(1))).toBe(false);
    expect(sameThresholds([], null)).toBe(true);
    expect(sameThresholds([{ metric: 'p95', op: '<', value: 1, abort: false }], [{ metric: 'p95', op: '<', value: 1 }])).toBe(true);
  });
  test('a missing, non-numeric, negative or too large value is a problem of its row', () => {
    const rows = [{ ...newRow(), value: '' }, { ...newRow(), value: '12' }, { ...newRow(), value: 'abc' }];
    expect(rowProblems(rows).map((p) => [p.index, p.field])).toEqual([
      [0, 'value'],
      [2, 'value'],
    ]);
    expect(rowProblems(rows)[0]!.message).toBe('Threshold 1: enter a value in ms.');
    expect(rowProblems([{ ...newRow(), value: '-5' }])[0]!.message).toBe('Threshold 1: the value must not be negative.');
    expect(rowProblems([{ ...newRow(), metric: 'error_rate', value: '120' }])[0]!.message).toBe('Threshold 1: an error rate is a percentage from 0 to 100.');
    expect(rowProblems([{ ...newRow(), metric: 'p95', value: '120' }, { ...newRow(), metric: 'error_rate', value: '0' }])).toEqual([]);
  });
});

describe('threshold wording', () => {
  test('limits and actual figures in the metric unit', () => {
    expect(formatLimit(saved[0]!)).toBe('< 500 ms');
    expect(formatLimit(saved[1]!)).toBe('≤ 1.5 %');
    expect(formatLimit(saved[2]!)).toBe('≥ 100/s');
    expect(describeThreshold(saved[0]!)).toBe('p95 latency of health < 500 ms');
    expect(describeThreshold(saved[1]!)).toBe('Error rate ≤ 1.5 %');
    expect(formatActual('p95', 12.34)).toBe('12.3 ms');
    expect(formatActual('error_rate', 0.0123)).toBe('1.23 %');
    expect(formatActual('requests_per_sec', 120)).toBe('120/s');
    expect(formatActual('p95', null)).toBe('–');
  });
});
