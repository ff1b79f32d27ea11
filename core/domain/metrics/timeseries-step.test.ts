/** The run time series' step: default by run length, explicit steps raised past the point bound, and `?step=` parsing. */
import { describe, expect, test } from 'bun:test';
import { bucketCount, chooseStep, maxPoints, parseStep, targetPoints } from './timeseries-step.ts';

describe('chooseStep', () => {
  test('by default 1 s for short runs, then the smallest round step that keeps the run within the target', () => {
    expect([0, 20, 500, 501, 1_000, 1_001, 3_600, 86_400, 7 * 86_400].map((span) => chooseStep(span))).toEqual([1, 1, 1, 2, 2, 5, 10, 300, 1_800]);
    // Past the roundest step, any whole number of seconds that still keeps the bound (a run of 30 days).
    expect(chooseStep(30 * 86_400)).toBe(5_184);
    for (const span of [1, 499, 12_345, 999_999, 30 * 86_400]) expect(bucketCount(span, chooseStep(span))).toBeLessThanOrEqual(targetPoints);
  });

  test('an explicit step is kept unless the run would have more than the bound of points; then it is raised just enough', () => {
    expect(chooseStep(20, 7)).toBe(7);
    expect(chooseStep(10_000, 1)).toBe(2);
    expect(chooseStep(3 * 86_400, 10)).toBe(52);
    for (const [span, step] of [[10_000, 1], [3 * 86_400, 10], [12_345, 2]] as const) {
      expect(bucketCount(span, chooseStep(span, step))).toBeLessThanOrEqual(maxPoints);
    }
  });
});

describe('parseStep', () => {
  test('absent or empty: the default; whole seconds 1..3600 as given', () => {
    expect([undefined, '', ' '].map(parseStep)).toEqual([undefined, undefined, undefined]);
    expect(['1', '60', ' 3600 '].map(parseStep)).toEqual([1, 60, 3600]);
  });

  test('anything else is a bad request naming the parameter', () => {
    for (const raw of ['0', '3601', '-1', '1.5', '1e3', '10s', 'abc', '0x10', '99999999999']) {
      expect(() => parseStep(raw), raw).toThrow(/^step must be a whole number of seconds from 1 to 3600/);
    }
  });
});
