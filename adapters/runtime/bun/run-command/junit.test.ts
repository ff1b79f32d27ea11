/**
 * The JUnit report of `loadplane run --junit`, read back by a real XML parser (Python's xml.etree): one testcase per
 * threshold with a failure naming actual and limit, one for the run without thresholds or when it failed on its own,
 * and names that XML must escape (or cannot hold) survive as text.
 */
import { describe, expect, test } from 'bun:test';
import { parseJunit } from '../../../../tests/helpers/junit-xml.ts';
import { junitReport, xmlEscape } from './junit.ts';
import type { TaskRecord } from './run-types.ts';

const base: TaskRecord = {
  id: '0b6a4c9e-8d1f-4f55-9a65-2f1b3c4d5e6f',
  public_id: 'K7QX2M',
  test_id: '5e0c2a4b-1111-4222-8333-944455566677',
  status: 'completed',
  p50: 5,
  p95: 9,
  p99: 9.5,
  error_rate: 0,
  requests_per_sec: 100,
  total_requests: 1000,
  error: null,
  verdict: null,
  threshold_results: [],
  pending_reason: null,
  created_at: '2026-11-26T10:59:58.000Z',
  started_at: '2026-11-26T11:00:00.000Z',
  finished_at: '2026-11-26T11:00:12.345Z',
};
const runUrl = 'https://lp.example/runs/0b6a4c9e-8d1f-4f55-9a65-2f1b3c4d5e6f';

describe('junitReport', () => {
  test('one testcase per threshold; a failed one names the actual figure and the limit', () => {
    const task: TaskRecord = {
      ...base,
      status: 'failed',
      verdict: 'failed',
      error: 'thresholds failed: p95 < 5 (actual 9)',
      threshold_results: [
        { metric: 'p95', op: '<', value: 5, actual: 9, ok: false },
        { metric: 'error_rate', op: '<=', value: 0.01, actual: 0, ok: true },
        { metric: 'p99', endpoint: 'checkout', op: '<', value: 200, actual: 312.4, ok: false },
        { metric: 'p50', endpoint: 'never', op: '<', value: 1, actual: null, ok: false },
      ],
    };
    const report = parseJunit(junitReport({ task, testName: 'checkout flow', runUrl }));
    expect(report.suite).toEqual({ name: 'checkout flow', tests: '4', failures: '3', errors: '0', time: '12.345', timestamp: '2026-11-26T11:00:00' });
    expect(report.suites).toEqual({ tests: '4', failures: '3', time: '12.345', timestamp: '2026-11-26T11:00:00' });
    expect(report.cases.map((c) => [c.name, c.failure?.message ?? null])).toEqual([
      ['p95 < 5', 'actual 9, limit < 5'],
      ['error_rate <= 0.01', null],
      ['p99 of checkout < 200', 'actual 312.4, limit < 200'],
      ['p50 of never < 1', 'actual not measured, limit < 1'],
    ]);
    expect(report.cases[0]).toMatchObject({ classname: 'loadplane.checkout flow', time: '12.345', failure: { type: 'threshold', text: 'p95 < 5 failed: actual 9, limit < 5' } });
    expect(report.properties).toEqual({ run_id: task.id, public_id: 'K7QX2M', test_id: task.test_id, status: 'failed', verdict: 'failed', url: runUrl });
    expect(report.out).toContain(runUrl);
  });

  test('a run without thresholds is one testcase, failed when the run failed', () => {
    const passed = parseJunit(junitReport({ task: base, testName: 'smoke', runUrl }));
    expect(passed.cases).toEqual([{ name: 'run completed', classname: 'loadplane.smoke', time: '12.345', failure: null }]);
    expect(passed.suite.failures).toBe('0');
    const failed = parseJunit(junitReport({ task: { ...base, status: 'failed', error: 'the script exited with code 3' }, testName: 'smoke', runUrl }));
    expect(failed.cases).toHaveLength(1);
    expect(failed.cases[0]!.failure).toMatchObject({ message: 'the run ended failed: the script exited with code 3', type: 'run failed' });
    expect(failed.suite.failures).toBe('1');
  });

  test('a run that failed or was cancelled for its own reason while its thresholds held is not a green report', () => {
    const task: TaskRecord = {
      ...base,
      status: 'failed',
      verdict: 'passed',
      error: 'machine gen-1 lost',
      threshold_results: [{ metric: 'p95', op: '<', value: 500, actual: 9, ok: true }],
    };
    const report = parseJunit(junitReport({ task, testName: 't', runUrl }));
    expect(report.cases.map((c) => [c.name, Boolean(c.failure)])).toEqual([
      ['run completed', true],
      ['p95 < 500', false],
    ]);
    const cancelled = parseJunit(junitReport({ task: { ...base, status: 'cancelled', finished_at: null }, testName: 't', runUrl }));
    expect(cancelled.cases[0]!.failure!.message).toBe('the run ended cancelled');
    expect(cancelled.suite.time).toBe('0.000');
  });

  test('names and messages XML must escape, or cannot hold, come through as text', () => {
    const name = `<a & "b"> 'c' \u0001 é ✓`;
    const task: TaskRecord = {
      ...base,
      status: 'failed',
      verdict: 'failed',
      error: 'thresholds failed: …',
      threshold_results: [{ metric: 'p95', endpoint: 'GET /x?a=1&b=<2>', op: '<', value: 1, actual: 2, ok: false }],
    };
    const report = parseJunit(junitReport({ task, testName: name, runUrl }));
    expect(report.suite.name).toBe(`<a & "b"> 'c' \uFFFD é ✓`);
    expect(report.cases[0]!.name).toBe('p95 of GET /x?a=1&b=<2> < 1');
    expect(xmlEscape('a\nb\t"')).toBe('a&#10;b&#9;&quot;');
  });
});
