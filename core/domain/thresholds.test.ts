import { describe, expect, test } from 'bun:test';
import type { RunFigures } from './metrics/merge-summaries.ts';
import {
  checkThresholds,
  describeThreshold,
  evaluateThresholds,
  liveAbortThresholds,
  liveFailures,
  liveRateWarmupSeconds,
  storedThresholds,
  type Threshold,
  thresholdFailureMessage,
  verdictOf,
} from './thresholds.ts';

const figures = (overrides: Partial<RunFigures> = {}): RunFigures => ({
  p50: 40,
  p95: 180,
  p99: 312.4,
  errorRate: 0.02,
  requestsPerSec: 150,
  totalRequests: 9000,
  ...overrides,
});
const only = (total: RunFigures, endpoints: [string, RunFigures][] = []) => ({ total, endpoints: new Map(endpoints) });

describe('evaluateThresholds', () => {
  test('each operator on each metric, at and around its boundary', () => {
    const total = figures();
    const cases: [Threshold, boolean][] = [
      [{ metric: 'p50', op: '<', value: 40 }, false],
      [{ metric: 'p50', op: '<=', value: 40 }, true],
      [{ metric: 'p95', op: '<', value: 200 }, true],
      [{ metric: 'p95', op: '>', value: 180 }, false],
      [{ metric: 'p95', op: '>=', value: 180 }, true],
      [{ metric: 'p99', op: '<', value: 200 }, false],
      [{ metric: 'error_rate', op: '<=', value: 0.02 }, true],
      [{ metric: 'error_rate', op: '<', value: 0.01 }, false],
      [{ metric: 'requests_per_sec', op: '>', value: 100 }, true],
      [{ metric: 'requests_per_sec', op: '>=', value: 150.01 }, false],
    ];
    const results = evaluateThresholds(
      cases.map(([threshold]) => threshold),
      only(total),
    );
    expect(results.map((r) => r.ok)).toEqual(cases.map(([, ok]) => ok));
    expect(results.map((r) => r.actual)).toEqual([40, 40, 180, 180, 180, 312.4, 0.02, 0.02, 150, 150]);
  });

  test('a result is the threshold as given with actual and ok', () => {
    const [result] = evaluateThresholds([{ metric: 'p99', op: '<', value: 200, abort: true }], only(figures()));
    expect(result).toEqual({ metric: 'p99', op: '<', value: 200, abort: true, actual: 312.4, ok: false });
  });

  test("an endpoint's threshold reads that endpoint's figures, not the run's", () => {
    const results = evaluateThresholds(
      [
        { metric: 'p95', endpoint: 'login', op: '<', value: 100 },
        { metric: 'p95', endpoint: 'search', op: '<', value: 100 },
        { metric: 'p95', op: '<', value: 100 },
      ],
      only(figures({ p95: 180 }), [
        ['login', figures({ p95: 90 })],
        ['search', figures({ p95: 250 })],
      ]),
    );
    expect(results.map((r) => [r.actual, r.ok])).toEqual([
      [90, true],
      [250, false],
      [180, false],
    ]);
  });

  test('an endpoint without figures fails with actual null, whatever the operator', () => {
    const results = evaluateThresholds(
      [
        { metric: 'p95', endpoint: 'checkout', op: '<', value: 1e9 },
        { metric: 'requests_per_sec', endpoint: 'checkout', op: '>=', value: 0 },
      ],
      only(figures()),
    );
    expect(results.map((r) => [r.actual, r.ok])).toEqual([
      [null, false],
      [null, false],
    ]);
  });

  test('a run without requests has no latency or error rate to judge (null, failed); its rate is 0', () => {
    const empty = figures({ p50: 0, p95: 0, p99: 0, errorRate: 0, requestsPerSec: 0, totalRequests: 0 });
    const results = evaluateThresholds(
      [
        { metric: 'p95', op: '<', value: 100 },
        { metric: 'error_rate', op: '<=', value: 0.5 },
        { metric: 'requests_per_sec', op: '<', value: 10 },
        { metric: 'requests_per_sec', op: '>', value: 1 },
      ],
      only(empty),
    );
    expect(results.map((r) => [r.actual, r.ok])).toEqual([
      [null, false],
      [null, false],
      [0, true],
      [0, false],
    ]);
  });

  test('no thresholds: no results, no verdict', () => {
    expect(evaluateThresholds([], only(figures()))).toEqual([]);
    expect(verdictOf([])).toBeNull();
  });
});

describe('verdict and words', () => {
  const results = evaluateThresholds(
    [
      { metric: 'p95', op: '<', value: 200 },
      { metric: 'p99', op: '<', value: 200 },
      { metric: 'error_rate', endpoint: 'login', op: '<=', value: 0.01 },
    ],
    only(figures()),
  );

  test('passed when every threshold holds, failed when any fails', () => {
    expect(verdictOf(results)).toBe('failed');
    expect(verdictOf(results.filter((r) => r.ok))).toBe('passed');
  });

  test('the failure message names each failing threshold with its figure', () => {
    expect(thresholdFailureMessage(results)).toBe('thresholds failed: p99 < 200 (actual 312.4); error_rate of login <= 0.01 (no figures)');
    expect(thresholdFailureMessage(results.filter((r) => r.ok))).toBeNull();
    expect(describeThreshold({ metric: 'requests_per_sec', op: '>=', value: 50 })).toBe('requests_per_sec >= 50');
  });
});

describe('live abort thresholds', () => {
  const thresholds: Threshold[] = [
    { metric: 'p95', op: '<', value: 200, abort: true },
    { metric: 'p99', op: '<', value: 500 },
    { metric: 'requests_per_sec', op: '>', value: 100, abort: true },
    { metric: 'requests_per_sec', op: '<', value: 5000, abort: true },
  ];

  test('only abort thresholds; rates only after the warm-up seconds of data', () => {
    expect(liveAbortThresholds(thresholds, 0).map(describeThreshold)).toEqual(['p95 < 200']);
    expect(liveAbortThresholds(thresholds, liveRateWarmupSeconds - 0.1).map(describeThreshold)).toEqual(['p95 < 200']);
    expect(liveAbortThresholds(thresholds, liveRateWarmupSeconds).map(describeThreshold)).toEqual([
      'p95 < 200',
      'requests_per_sec > 100',
      'requests_per_sec < 5000',
    ]);
  });
});

test('live, only a failure on a measured figure stops a run: no request yet, or an endpoint not reached yet, does not', () => {
  const thresholds: Threshold[] = [
    { metric: 'p95', op: '<', value: 10, abort: true },
    { metric: 'p95', endpoint: 'checkout', op: '<', value: 10, abort: true },
  ];
  const nothingYet = figures({ p50: 0, p95: 0, p99: 0, errorRate: 0, requestsPerSec: 0, totalRequests: 0 });
  expect(liveFailures(evaluateThresholds(thresholds, only(nothingYet)))).toEqual([]);
  expect(liveFailures(evaluateThresholds(thresholds, only(figures({ p95: 5 }))))).toEqual([]);
  expect(liveFailures(evaluateThresholds(thresholds, only(figures({ p95: 5 }), [['checkout', figures({ p95: 50 })]]))).map(describeThreshold)).toEqual([
    'p95 of checkout < 10',
  ]);
  expect(liveFailures(evaluateThresholds(thresholds, only(figures({ p95: 50 })))).map(describeThreshold)).toEqual(['p95 < 10']);
});

describe('checkThresholds', () => {
  test('null or absent is none; a valid list comes back normalised', () => {
    expect(checkThresholds(undefined)).toEqual([]);
    expect(checkThresholds(null)).toEqual([]);
    expect(
      checkThresholds([
        { metric: 'p95', op: '<', value: 200 },
        { metric: 'error_rate', endpoint: '  login ', op: '<=', value: 0.01, abort: true },
        { metric: 'requests_per_sec', op: '>=', value: 0, abort: false },
      ]),
    ).toEqual([
      { metric: 'p95', op: '<', value: 200 },
      { metric: 'error_rate', endpoint: 'login', op: '<=', value: 0.01, abort: true },
      { metric: 'requests_per_sec', op: '>=', value: 0 },
    ]);
  });

  test.each([
    ['not a list', { metric: 'p95' }, 'thresholds must be an array'],
    ['an item that is no object', [1], 'thresholds[0] must be an object'],
    ['an unknown metric', [{ metric: 'p90', op: '<', value: 1 }], 'thresholds[0].metric must be one of p50, p95, p99, error_rate, requests_per_sec (got "p90")'],
    ['no metric', [{ op: '<', value: 1 }], 'thresholds[0].metric must be one of'],
    ['an unknown operator', [{ metric: 'p95', op: '<', value: 1 }, { metric: 'p95', op: '==', value: 1 }], 'thresholds[1].op must be one of <, <=, >, >= (got "==")'],
    ['a string value', [{ metric: 'p95', op: '<', value: '200' }], 'thresholds[0].value must be a finite number (got "200")'],
    ['an infinite value', [{ metric: 'p95', op: '<', value: Number.POSITIVE_INFINITY }], 'thresholds[0].value must be a finite number'],
    ['NaN', [{ metric: 'p95', op: '<', value: Number.NaN }], 'thresholds[0].value must be a finite number'],
    ['a negative value', [{ metric: 'p50', op: '>', value: -1 }], 'thresholds[0].value must not be negative'],
    ['an error rate above 1', [{ metric: 'error_rate', op: '<', value: 5 }], 'thresholds[0].value is an error rate: a fraction from 0 to 1 (got 5)'],
    ['a blank endpoint', [{ metric: 'p95', endpoint: ' ', op: '<', value: 1 }], 'thresholds[0].endpoint must be an endpoint name'],
    ['a long endpoint', [{ metric: 'p95', endpoint: 'x'.repeat(201), op: '<', value: 1 }], 'thresholds[0].endpoint must be at most 200 characters'],
    ['a non-boolean abort', [{ metric: 'p95', op: '<', value: 1, abort: 'yes' }], 'thresholds[0].abort must be true or false'],
    ['an unknown field', [{ metric: 'p95', op: '<', value: 1, severity: 'high' }], 'thresholds[0].severity is not a threshold field'],
    ['too many', Array.from({ length: 51 }, () => ({ metric: 'p95', op: '<', value: 1 })), 'thresholds has 51 items; at most 50'],
  ])('refuses %s, naming the item and field', (_, input, message) => {
    let caught: unknown;
    try {
      checkThresholds(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'bad_request' });
    expect((caught as Error).message).toContain(message);
  });

  test('50 thresholds are allowed', () => {
    expect(checkThresholds(Array.from({ length: 50 }, () => ({ metric: 'p95', op: '<', value: 1 })))).toHaveLength(50);
  });
});

test('storedThresholds reads jsonb as an object or as text, and anything else as none', () => {
  const list = [{ metric: 'p95', op: '<', value: 1 }];
  expect(storedThresholds(list)).toEqual(list as Threshold[]);
  expect(storedThresholds(JSON.stringify(list))).toEqual(list as Threshold[]);
  expect(storedThresholds(null)).toEqual([]);
  expect(storedThresholds('not json')).toEqual([]);
});
