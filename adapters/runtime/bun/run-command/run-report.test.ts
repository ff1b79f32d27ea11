/** What `loadplane run --wait` prints: figures, the endpoint table, thresholds with actual and limit, the verdict, changes. */
import { describe, expect, test } from 'bun:test';
import { change, formatComparison, formatReport, table } from './run-report.ts';
import type { TaskRecord } from './run-types.ts';

const task: TaskRecord = {
  id: 'run-1',
  public_id: 'K7QX2M',
  test_id: 'test-1',
  status: 'failed',
  p50: 5,
  p95: 9.04,
  p99: 12.345,
  error_rate: 0.25,
  requests_per_sec: 100.26,
  total_requests: 12034,
  error: 'thresholds failed: error_rate <= 0.01 (actual 0.25)',
  verdict: 'failed',
  threshold_results: [
    { metric: 'p95', op: '<', value: 200, actual: 9.04, ok: true },
    { metric: 'error_rate', endpoint: 'checkout', op: '<=', value: 0.01, actual: 0.25, ok: false },
  ],
  pending_reason: null,
  created_at: '2026-11-26T11:00:00.000Z',
  started_at: '2026-11-26T11:00:00.000Z',
  finished_at: '2026-11-26T11:00:12.000Z',
};

describe('formatReport', () => {
  test('figures, endpoints, each threshold with actual and limit, the verdict', () => {
    const text = formatReport({
      task,
      testName: 'checkout flow',
      runUrl: 'https://lp.example/runs/run-1',
      endpoints: [{ name: 'checkout', requests: 12034, errors: 3008, error_rate: 0.25, requests_per_sec: 100.26, p50: 5, p95: 9.04, p99: 12.345, max: 40 }],
    });
    expect(text).toContain('run run-1 (public id K7QX2M) of test "checkout flow": failed');
    expect(text).toContain('https://lp.example/runs/run-1');
    expect(text).toContain('duration    12.0 s');
    expect(text).toContain('requests    12,034 (100.3/s)');
    expect(text).toContain('error rate  25.00 %');
    expect(text).toContain('latency ms  p50 5.0  p95 9.0  p99 12.3');
    expect(text).toMatch(/name +requests +errors +error rate +req\/s +p50 ms +p95 ms +p99 ms +max ms/);
    expect(text).toMatch(/checkout +12,034 +3,008 +25\.00 % +100\.3 +5\.0 +9\.0 +12\.3 +40\.0/);
    // Threshold names left-aligned, each column in one place.
    expect(text).toContain('  ok    p95 < 200                       actual 9.04  limit < 200');
    expect(text).toContain('  FAIL  error_rate of checkout <= 0.01  actual 0.25  limit <= 0.01');
    expect(text).toMatch(/FAIL +error_rate of checkout <= 0\.01 +actual 0\.25 +limit <= 0\.01/);
    expect(text.trimEnd().split('\n').at(-1)).toBe('verdict: failed');
  });

  test('no thresholds, no endpoints, an older service without endpoint figures', () => {
    const plain = { ...task, status: 'completed', verdict: null, error: null, threshold_results: [] };
    const text = formatReport({ task: plain, testName: 't', runUrl: 'u', endpoints: [] });
    expect(text).toContain('endpoints: none measured');
    expect(text).toContain('thresholds: none');
    expect(text).toContain('verdict: none (the test has no thresholds): the run completed');
    expect(formatReport({ task: { ...plain, status: 'cancelled' }, testName: 't', runUrl: 'u', endpoints: null })).toContain(
      'verdict: none (the run ended cancelled before its thresholds were checked)',
    );
  });
});

describe('formatComparison', () => {
  test('the relative changes of each figure, and per endpoint', () => {
    const text = formatComparison(
      {
        base: { id: 'b', public_id: 'BASE01', p50: 5, p95: 10, p99: 20, error_rate: 0, requests_per_sec: 100 },
        current: { id: 'c', p50: 5.5, p95: 9, p99: 20, error_rate: 0.01, requests_per_sec: 110 },
        changes: { p50: 0.1, p95: -0.1, p99: 0, error_rate: null, requests_per_sec: 0.1 },
        endpoints: [{ name: 'checkout', changes: { p50: 0.2, p95: 0.123, p99: -0.05, error_rate: null, requests_per_sec: 0 } }],
      },
      'baseline',
    );
    expect(text).toContain('compared with the baseline, run BASE01');
    expect(text).toMatch(/p50 ms +5\.0 +5\.5 +\+10\.0 %/);
    expect(text).toMatch(/p95 ms +10\.0 +9\.0 +-10\.0 %/);
    expect(text).toMatch(/error rate +0\.00 % +1\.00 % +-/);
    expect(text).toMatch(/checkout +\+20\.0 % +\+12\.3 % +-5\.0 % +- +0\.0 %/);
  });

  test('change and table helpers', () => {
    expect([change(0.1234), change(-0.5), change(0), change(null), change(undefined)]).toEqual(['+12.3 %', '-50.0 %', '0.0 %', '-', '-']);
    expect(table([['a', '1'], ['long', '100']], '')).toBe('a       1\nlong  100');
    expect(table([['ok', 'p95 < 200'], ['FAIL', 'p95 of checkout < 200']], '', true)).toBe('ok    p95 < 200\nFAIL  p95 of checkout < 200');
  });
});
