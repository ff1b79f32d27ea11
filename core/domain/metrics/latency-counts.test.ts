import { expect, test } from 'bun:test';
import { LatencyHistogram } from './histogram.ts';
import { LatencyCountsReader, latencyCountsPrefix } from './latency-counts.ts';
import { MetricRecorder } from './metric-recorder.ts';

const line = (body: unknown) => `${latencyCountsPrefix}${JSON.stringify(body)}`;

test('counts per millisecond become exact histogram counts; OK and KO both latencies, KO the errors', () => {
  const reader = new LatencyCountsReader(new MetricRecorder(() => 50));
  expect(reader.read(line({ from: 100, to: 900, ok: { 3: 4, 250: 1 }, ko: { 3: 1 } }))).toBe(true);
  const interval = reader.takeInterval(1_000)!;
  expect([interval.requests, interval.errors, interval.startedAt, interval.endedAt]).toEqual([6, 1, 100, 900]);
  const histogram = LatencyHistogram.decode(interval.histogram);
  expect(histogram.count).toBe(6);
  expect(histogram.percentile(80)).toBeWithin(3, 3 * (1 + 1 / 1024) + 1e-9);
  expect(histogram.max).toBeWithin(250, 250 * (1 + 1 / 1024) + 1e-9);
  expect(reader.takeInterval(1_000)).toBeNull();
});

test('the summary spans the load (first start to last end), not the recorder\'s creation; without lines it is the recorder\'s', () => {
  const recorder = new MetricRecorder(() => 10);
  const reader = new LatencyCountsReader(recorder);
  expect(reader.summary(20)).toEqual(recorder.summary(20));
  reader.read(line({ from: 1_000, to: 2_000, ok: { 1: 1 }, ko: {} }));
  reader.read(line({ from: 1_900, to: 3_000, ok: { 2: 1 }, ko: {} }));
  const summary = reader.summary(5_000);
  expect([summary.requests, summary.startedAt, summary.endedAt]).toEqual([2, 1_000, 3_000]);
});

test('other lines, torn lines and nonsense entries are not counted', () => {
  const reader = new LatencyCountsReader();
  expect(reader.read('INFO JMeter: hi')).toBe(false);
  expect(reader.read(`${latencyCountsPrefix}{"from":1,"to":`)).toBe(false);
  expect(reader.read(line({ from: 1, to: 2, ok: [1], ko: {} }))).toBe(false);
  expect(reader.read(line({ from: 'x', to: 2, ok: {}, ko: {} }))).toBe(false);
  expect(reader.read(line({ from: 1, to: 2, ok: { '-5': 1, x: 2, 7: 1.5, 8: -1, 9: 2 }, ko: {} }))).toBe(true);
  expect(reader.summary().requests).toBe(2);
});
