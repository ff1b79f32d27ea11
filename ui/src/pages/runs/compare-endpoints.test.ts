/** Comparing two runs per endpoint: matched by name, changes relative to the base run. */
import { expect, test } from 'bun:test';
import type { TaskEndpoint } from '../../api/types';
import { compareEndpoints } from './compare-endpoints';

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

test('endpoints of both runs matched by name, with relative changes', () => {
  const base = [endpoint('login', 100, 200), endpoint('home', 50, 400), endpoint('gone', 10, 5)];
  const current = [endpoint('home', 40, 500), endpoint('login', 120, 200), endpoint('new', 30, 10)];
  const rows = compareEndpoints(base, current);
  expect(rows.map((r) => r.name)).toEqual(['home', 'login', 'new', 'gone']);
  expect(rows[0]).toMatchObject({ base: { p95: 50, requests: 400 }, current: { p95: 40, requests: 500 }, p95Verdict: 'better' });
  expect(rows[0]!.p95Change).toBeCloseTo(-0.2);
  expect(rows[0]!.requestsChange).toBeCloseTo(0.25);
  expect(rows[1]).toMatchObject({ p95Verdict: 'worse', requestsChange: 0 });
  expect(rows[2]).toMatchObject({ base: null, p95Change: null, requestsChange: null, p95Verdict: 'same' });
  expect(rows[3]).toMatchObject({ current: null, p95Change: null });
  expect(compareEndpoints([], [])).toEqual([]);
});
