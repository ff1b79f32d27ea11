import { describe, expect, test } from 'bun:test';
import { progressLine } from './progress-line.ts';

const quiet = { requests: 0, ms: 0, p95Ms: null };

describe('progressLine', () => {
  test('before the first request: elapsed time only, still a sign of life', () => {
    expect(progressLine({ elapsedMs: 4_003, requests: 0, errors: 0, recent: quiet })).toBe('[loadplane] progress: 4 s, no requests yet');
  });

  test('totals so far, the rate and p95 of the window since the previous line', () => {
    const line = progressLine({ elapsedMs: 6_000, requests: 1_204, errors: 0, recent: { requests: 400, ms: 1_999, p95Ms: 12.34 } });
    expect(line).toBe('[loadplane] progress: 6 s, 1,204 requests (200.1/s), errors 0.0 %, p95 12.3 ms');
  });

  test('a window without requests: rate 0, no p95 (nothing to read it from)', () => {
    expect(progressLine({ elapsedMs: 8_000, requests: 10, errors: 5, recent: quiet })).toBe('[loadplane] progress: 8 s, 10 requests (0.0/s), errors 50.0 %');
  });

  test('one request is one request', () => {
    expect(progressLine({ elapsedMs: 5_000, requests: 1, errors: 0, recent: { requests: 1, ms: 5_000, p95Ms: 10 } })).toBe('[loadplane] progress: 5 s, 1 request (0.2/s), errors 0.0 %, p95 10.0 ms');
  });

  test('a few errors among many are not rounded away to 0.0 %', () => {
    expect(progressLine({ elapsedMs: 60_000, requests: 100_000, errors: 3, recent: { requests: 2_000, ms: 2_000, p95Ms: 1_234.56 } })).toBe(
      '[loadplane] progress: 60 s, 100,000 requests (1,000.0/s), errors <0.1 %, p95 1,234.6 ms',
    );
  });
});
