/** The JVM hooks' `@loadplane-endpoint` lines: counts per request name and failures into the interval's endpoints. */
import { expect, test } from 'bun:test';
import { LatencyHistogram } from './histogram.ts';
import { LatencyCountsReader } from './latency-counts.ts';
import { MetricRecorder } from './metric-recorder.ts';

test('endpoint lines fill the endpoints and error groups; the second line the totals; torn lines are not read', () => {
  const reader = new LatencyCountsReader(new MetricRecorder(() => 5_000));
  const endpoint = (name: string, ok: Record<string, number>, ko: Record<string, number>, failures: unknown[] = []) =>
    `@loadplane-endpoint ${JSON.stringify({ name, from: 1_000, to: 2_000, ok, ko, failures })}`;
  expect(reader.read(endpoint('GET /a', { 10: 3, 12: 1 }, {}))).toBe(true);
  expect(reader.read(endpoint('broken', {}, { 2: 2 }, [{ kind: 'status', code: '500', message: 'status 500 Server Error', count: 2 }]))).toBe(true);
  expect(reader.read('@loadplane-metrics {"from":1000,"to":2000,"ok":{"10":3,"12":1},"ko":{"2":2}}')).toBe(true);
  expect(reader.read('@loadplane-endpoint {"name":"torn"')).toBe(false);
  expect(reader.read('@loadplane-endpoint {"ok":{},"ko":{}}')).toBe(false);
  const interval = reader.takeInterval(5_000)!;
  expect(interval).toMatchObject({ requests: 6, errors: 2 });
  expect(interval.endpoints!.map(({ name, requests, errors }) => ({ name, requests, errors }))).toEqual([
    { name: 'GET /a', requests: 4, errors: 0 },
    { name: 'broken', requests: 2, errors: 2 },
  ]);
  expect(LatencyHistogram.decode(interval.endpoints![0]!.histogram).percentile(50)).toBeCloseTo(10, 1);
  expect(interval.errorGroups).toEqual([{ endpoint: 'broken', kind: 'status', code: '500', message: 'status 500 Server Error', count: 2 }]);
});
