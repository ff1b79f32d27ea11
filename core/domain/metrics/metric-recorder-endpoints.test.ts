/**
 * MetricRecorder per endpoint: names and failures in an interval, the cardinality guard (200 names a run, the rest
 * folded into `(other)` with every request still counted), bounded error groups and messages.
 */
import { describe, expect, test } from 'bun:test';
import { LatencyHistogram } from './histogram.ts';
import { maxEndpointNames, maxErrorGroups, maxErrorMessageLength, MetricRecorder, otherEndpoint } from './metric-recorder.ts';

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

describe('MetricRecorder per endpoint', () => {
  test('requests with a name fill their endpoint; unnamed ones only the totals; the endpoints go with the interval', () => {
    const recorder = new MetricRecorder(() => 1_000);
    recorder.request(10, false, 1_000, { endpoint: 'GET /a' });
    recorder.request(30, true, 1_000, { endpoint: 'GET /a', failure: { kind: 'status', code: '500', message: 'status 500' } });
    recorder.request(5, false, 1_000);
    const interval = recorder.takeInterval(1_000)!;
    expect(interval).toMatchObject({ requests: 3, errors: 1 });
    expect(interval.endpoints).toHaveLength(1);
    expect(interval.endpoints![0]).toMatchObject({ name: 'GET /a', requests: 2, errors: 1 });
    expect(LatencyHistogram.decode(interval.endpoints![0]!.histogram).max).toBe(30);
    expect(interval.errorGroups).toEqual([{ endpoint: 'GET /a', kind: 'status', code: '500', message: 'status 500', count: 1 }]);
    // Taken: the next interval starts empty, and has no endpoints field at all.
    recorder.request(5, false, 1_001);
    const next = recorder.takeInterval(1_001)!;
    expect(next.endpoints).toBeUndefined();
    expect(next.errorGroups).toBeUndefined();
    // The summary keeps the run's totals, not the endpoints.
    expect(recorder.summary(1_002)).toMatchObject({ requests: 4, errors: 1 });
    expect(recorder.summary(1_002).endpoints).toBeUndefined();
  });

  test(`5,000 distinct names: ${maxEndpointNames} kept, the rest in ${otherEndpoint}, totals intact, across intervals`, () => {
    const recorder = new MetricRecorder(() => 1_000);
    const intervals = [];
    for (let i = 0; i < 5_000; i++) {
      recorder.request(1 + (i % 7), i % 10 === 0, 1_000, { endpoint: `/item/${i}` });
      if (i % 1_000 === 999) intervals.push(recorder.takeInterval(1_000)!);
    }
    const names = new Set(intervals.flatMap((interval) => interval.endpoints!.map((endpoint) => endpoint.name)));
    expect(names.size).toBe(maxEndpointNames + 1);
    expect(names.has(otherEndpoint)).toBe(true);
    expect(names.has('/item/0')).toBe(true);
    expect(names.has(`/item/${maxEndpointNames}`)).toBe(false);
    for (const interval of intervals) expect(interval.endpoints!.length).toBeLessThanOrEqual(maxEndpointNames + 1);
    const endpoints = intervals.flatMap((interval) => interval.endpoints!);
    expect(sum(endpoints.map((endpoint) => endpoint.requests))).toBe(5_000);
    expect(sum(endpoints.map((endpoint) => endpoint.errors))).toBe(500);
    expect(sum(endpoints.map((endpoint) => endpoint.histogram.count))).toBe(5_000);
    expect(sum(intervals.map((interval) => interval.requests))).toBe(5_000);
  });

  test('error groups are bounded (the rest counted per kind under (other)), messages cut', () => {
    const recorder = new MetricRecorder(() => 1_000);
    for (let i = 0; i < 300; i++) {
      recorder.request(1, true, 1_000, { endpoint: 'e', failure: { kind: 'network', code: `code-${i}`, message: 'x'.repeat(5_000) } });
    }
    const groups = recorder.takeInterval(1_000)!.errorGroups!;
    expect(groups).toHaveLength(maxErrorGroups + 1);
    expect(sum(groups.map((group) => group.count))).toBe(300);
    expect(groups.at(-1)).toMatchObject({ endpoint: otherEndpoint, kind: 'network', code: otherEndpoint, count: 300 - maxErrorGroups });
    for (const group of groups) expect(group.message.length).toBeLessThanOrEqual(maxErrorMessageLength);
  });
});
