import { describe, expect, test } from 'bun:test';
import { DomainError } from '../kernel/errors.ts';
import {
  configDurationMs,
  formatDuration,
  isIdleShare,
  machineShare,
  parseDuration,
  splitLoadConfig,
  validateLoadConfig,
} from './load-config.ts';

function failure(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a failure');
}

describe('parseDuration', () => {
  test('units and combinations', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('1.5s')).toBe(1_500);
    expect(parseDuration(' 2h ')).toBe(7_200_000);
    expect(parseDuration('0s')).toBe(0);
  });

  test('clear errors that name the field', () => {
    const noUnit = failure(() => parseDuration('30', 'stages[1].duration'));
    expect(noUnit.code).toBe('bad_request');
    expect(noUnit.message).toBe('stages[1].duration "30" has no unit: write "30s", "30m" or "30ms"');
    expect(noUnit.details).toEqual({ field: 'stages[1].duration' });
    for (const bad of ['', '  ', '5x', '-5s', '1h 30m', 's', '5s10', 'ten seconds']) {
      expect(failure(() => parseDuration(bad)).message).toMatch(/^duration/);
    }
    expect(failure(() => parseDuration(30)).message).toMatch(/must be a duration/);
    expect(failure(() => parseDuration('25h')).message).toMatch(/longer than 24h/);
    // Longer than the column that stores it (schemathesis found a 500 here): refused, padding aside.
    expect(failure(() => parseDuration('1s1s1s1s1s1s1s1s1s1s1s')).message).toBe('duration is at most 20 characters, e.g. "1h30m"');
    expect(parseDuration(`   ${'1s'.repeat(10)}   `)).toBe(10_000);
  });

  test('formatDuration is the inverse for whole milliseconds', () => {
    for (const ms of [1, 500, 1_000, 1_500, 90_000, 5_400_000, 3_723_004]) expect(parseDuration(formatDuration(ms))).toBe(ms);
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(0)).toBe('0s');
  });
});

describe('validateLoadConfig', () => {
  test('vus with duration', () => {
    expect(validateLoadConfig({ vus: 10, duration: ' 30s ' })).toEqual({ vus: 10, duration: '30s' });
    expect(validateLoadConfig({ vus: 100_000, duration: '1s', stages: undefined })).toEqual({ vus: 100_000, duration: '1s' });
  });

  test('stages', () => {
    const stages = [
      { duration: '30s', target: 10 },
      { duration: '1m', target: 10 },
      { duration: '10s', target: 0 },
    ];
    expect(validateLoadConfig({ stages, vus: null, duration: null })).toEqual({ stages });
  });

  test('errors name the field', () => {
    const cases: [unknown, string, RegExp][] = [
      [{ vus: 0, duration: '30s' }, 'vus', /vus must be an integer from 1 to 100000/],
      [{ vus: 100_001, duration: '30s' }, 'vus', /vus/],
      [{ vus: 1.5, duration: '30s' }, 'vus', /integer/],
      [{ vus: '5', duration: '30s' }, 'vus', /integer/],
      [{ vus: 5 }, 'duration', /duration is required/],
      [{ duration: '30s' }, 'vus', /vus is required/],
      [{ vus: 5, duration: '0s' }, 'duration', /longer than 0s/],
      [{ vus: 5, duration: 'soon' }, 'duration', /not a duration/],
      [{ vus: 5, duration: '30s', stages: [{ duration: '1s', target: 1 }] }, 'stages', /not both/],
      [{ stages: [] }, 'stages', /1 to 100/],
      [{ stages: Array.from({ length: 101 }, () => ({ duration: '1s', target: 1 })) }, 'stages', /1 to 100/],
      [{ stages: [{ duration: '1s', target: 1 }, { duration: '1s', target: -1 }] }, 'stages[1].target', /from 0 to 100000/],
      [{ stages: [{ duration: '1x', target: 1 }] }, 'stages[0].duration', /not a duration/],
      [{ stages: [{ target: 1 }] }, 'stages[0].duration', /must be a duration/],
      [{ stages: ['1s'] }, 'stages[0]', /object/],
      [{ stages: [{ duration: '0s', target: 5 }] }, 'stages', /longer than 0s in total/],
      [{ stages: [{ duration: '10s', target: 0 }] }, 'stages', /target above 0/],
      [{}, 'vus', /vus is required/],
      [null, 'config', /object/],
    ];
    for (const [input, field, message] of cases) {
      const error = failure(() => validateLoadConfig(input));
      expect(error.details).toEqual({ field });
      expect(error.message).toMatch(message);
    }
  });
});

describe('splitting VUs across machines', () => {
  test('as even as possible, summing to the total, everyone ≥ 1 when there are enough', () => {
    for (const [total, count] of [[10, 3], [7, 7], [100_000, 7], [5, 1], [13, 4]] as const) {
      const shares = Array.from({ length: count }, (_, i) => machineShare(total, i, count));
      expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
      expect(Math.min(...shares)).toBeGreaterThanOrEqual(1);
    }
    expect([0, 1, 2].map((i) => machineShare(10, i, 3))).toEqual([4, 3, 3]);
    expect([0, 1, 2, 3].map((i) => machineShare(2, i, 4))).toEqual([1, 1, 0, 0]);
    expect(() => machineShare(10, 3, 3)).toThrow(RangeError);
    expect(() => machineShare(10, 0, 0)).toThrow(RangeError);
  });

  test('configs: vus and each stage target split the same way; durations kept', () => {
    expect(splitLoadConfig({ vus: 10, duration: '30s' }, 1, 3)).toEqual({ vus: 3, duration: '30s' });
    const stages = [
      { duration: '10s', target: 10 },
      { duration: '20s', target: 5 },
      { duration: '5s', target: 0 },
    ];
    expect(splitLoadConfig({ stages }, 0, 3)).toEqual({
      stages: [
        { duration: '10s', target: 4 },
        { duration: '20s', target: 2 },
        { duration: '5s', target: 0 },
      ],
    });
    expect(splitLoadConfig({ stages }, 2, 3).stages!.map((s) => s.target)).toEqual([3, 1, 0]);
    expect(isIdleShare(splitLoadConfig({ vus: 2, duration: '1s' }, 3, 4))).toBe(true);
    expect(isIdleShare(splitLoadConfig({ stages: [{ duration: '1s', target: 1 }] }, 1, 2))).toBe(true);
    expect(isIdleShare(splitLoadConfig({ stages }, 2, 3))).toBe(false);
  });

  test('configDurationMs', () => {
    expect(configDurationMs({ vus: 1, duration: '1m30s' })).toBe(90_000);
    expect(configDurationMs({ stages: [{ duration: '10s', target: 1 }, { duration: '500ms', target: 0 }] })).toBe(10_500);
    expect(configDurationMs({})).toBe(0);
  });
});
