/** Comparing two runs: relative changes from the base run, and which direction is better. */
import { describe, expect, test } from 'bun:test';
import { comparedFigures, relativeChange, verdictOf } from './compare-figures';

const figure = (key: string) => comparedFigures.find((f) => f.key === key)!;

describe('compare figures', () => {
  test('relative change from the base', () => {
    expect(relativeChange(100, 112)).toBeCloseTo(0.12);
    expect(relativeChange(0, 0)).toBe(0);
    expect(relativeChange(0, 5)).toBeNull();
  });
  test('lower latency and errors are better, more requests/s is better, totals are neutral', () => {
    expect(verdictOf(figure('p95'), 100, 80)).toBe('better');
    expect(verdictOf(figure('p95'), 100, 120)).toBe('worse');
    expect(verdictOf(figure('error_rate'), 0.01, 0.02)).toBe('worse');
    expect(verdictOf(figure('requests_per_sec'), 100, 120)).toBe('better');
    expect(verdictOf(figure('total_requests'), 100, 200)).toBe('same');
    expect(verdictOf(figure('p50'), 100, 100.2)).toBe('same');
  });
});
