import { describe, expect, test } from 'bun:test';
import type { ComparedRun, EndpointChange, TaskEndpoint } from '../../api/types';
import { barWidth, endpointVerdict, figureRows, formatDelta, sameIsZero, topEndpoints } from './server-compare';

const run = (over: Partial<ComparedRun>): ComparedRun => ({
  id: 'x',
  public_id: '1',
  p50: 10,
  p95: 20,
  p99: 30,
  error_rate: 0,
  requests_per_sec: 100,
  total_requests: 1000,
  verdict: null,
  ...over,
});
const endpoint = (name: string, p95: number, requests: number): TaskEndpoint => ({
  name,
  requests,
  errors: 0,
  error_rate: 0,
  requests_per_sec: requests / 10,
  p50: p95 / 2,
  p95,
  p99: p95 * 2,
  max: p95 * 3,
});

describe('figureRows', () => {
  test('uses the server changes and works out total requests', () => {
    const rows = figureRows(run({}), run({ p95: 30, total_requests: 1500 }), { p50: 0, p95: 0.5, p99: 0, error_rate: null, requests_per_sec: 0 });
    expect(rows.map((r) => r.figure.key)).toEqual(['p50', 'p95', 'p99', 'error_rate', 'requests_per_sec', 'total_requests']);
    const p95 = rows.find((r) => r.figure.key === 'p95')!;
    expect(p95.change).toBe(0.5);
    expect(p95.verdict).toBe('worse');
    expect(rows.find((r) => r.figure.key === 'error_rate')!.change).toBe(0);
    expect(rows.find((r) => r.figure.key === 'total_requests')!.change).toBe(0.5);
  });
});

describe('endpoints', () => {
  const rows: EndpointChange[] = [
    { name: 'a', base: endpoint('a', 10, 100), current: endpoint('a', 20, 50), changes: null },
    { name: 'b', base: null, current: endpoint('b', 50, 10), changes: null },
    { name: '(other)', base: endpoint('(other)', 999, 9999), current: null, changes: null },
  ];
  test('verdicts need both runs', () => {
    expect(endpointVerdict(rows[0]!, 'p95')).toBe('worse');
    expect(endpointVerdict(rows[0]!, 'requests_per_sec')).toBe('worse');
    expect(endpointVerdict(rows[1]!, 'p95')).toBe('same');
  });
  test('top endpoints by the larger value, (other) left out', () => {
    expect(topEndpoints(rows, 'p95').map((r) => r.name)).toEqual(['b', 'a']);
    expect(topEndpoints(rows, 'requests', 1)).toEqual([{ name: 'a', base: 100, current: 50 }]);
  });
  test('bar widths', () => {
    expect(barWidth(5, 10)).toBe(50);
    expect(barWidth(null, 10)).toBe(0);
    expect(barWidth(5, 0)).toBe(0);
  });
});

describe('formatDelta', () => {
  test('signed, in the unit of the figure', () => {
    expect(formatDelta(10, 12.5, (v) => `${v} ms`)).toBe('+2.5 ms');
    expect(formatDelta(10, 8, (v) => `${v} ms`)).toBe('−2 ms');
    expect(formatDelta(10, 10, (v) => `${v} ms`)).toBe('±0 ms');
    expect(formatDelta(null, 10, (v) => `${v}`)).toBe('');
  });
});

describe('sameIsZero', () => {
  test('keeps the change, 0 for equal figures, null otherwise', () => {
    expect(sameIsZero(0.5, 1, 1.5)).toBe(0.5);
    expect(sameIsZero(null, 0, 0)).toBe(0);
    expect(sameIsZero(null, 0, 3)).toBeNull();
    expect(sameIsZero(undefined, undefined, undefined)).toBeNull();
  });
});
