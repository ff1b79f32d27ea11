/** Tests of the load-shape helpers: durations, points, the spoken description. */
import { describe, expect, test } from 'bun:test';
import { describeShape, parseDurationSeconds, shapePoints } from './stages-preview';

describe('stages preview', () => {
  test('reads durations', () => {
    expect(parseDurationSeconds(30)).toBe(30);
    expect(parseDurationSeconds('30')).toBe(30);
    expect(parseDurationSeconds('30s')).toBe(30);
    expect(parseDurationSeconds('5m')).toBe(300);
    expect(parseDurationSeconds('1h30m')).toBe(5400);
    expect(parseDurationSeconds('250ms')).toBe(0.25);
    expect(parseDurationSeconds('soon')).toBeNull();
    expect(parseDurationSeconds('5x')).toBeNull();
  });

  test('stages ramp from zero; vus + duration hold', () => {
    expect(shapePoints({ stages: [{ duration: '30s', target: 10 }, { duration: '1m', target: 10 }] })).toEqual([
      [0, 0],
      [30, 10],
      [90, 10],
    ]);
    expect(shapePoints({ vus: 5, duration: '10s' })).toEqual([
      [0, 5],
      [10, 5],
    ]);
    expect(describeShape(shapePoints({ vus: 5, duration: '2m' })!)).toBe('5 VUs for 2 min');
    expect(describeShape(shapePoints({ stages: [{ duration: '30s', target: 10 }] })!)).toBe('Ramps to 10 VUs over 30 s; peak 10 VUs, 30 s in all');
  });
});
