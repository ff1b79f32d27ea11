import { describe, expect, test } from 'bun:test';
import { LatencyHistogram } from './histogram.ts';
import { emptySnapshot, MetricRecorder } from './metric-recorder.ts';

describe('MetricRecorder', () => {
  test('intervals cover what happened since the last one; the summary covers everything', () => {
    let clock = 10_000;
    const recorder = new MetricRecorder(() => clock);
    expect(recorder.takeInterval()).toBeNull();
    recorder.request(5, false, 10_100);
    recorder.request(50, true, 10_300);
    const first = recorder.takeInterval(10_400)!;
    expect(first).toMatchObject({ requests: 2, errors: 1, startedAt: 10_100, endedAt: 10_300 });
    expect(recorder.takeInterval()).toBeNull();
    // Counts and latencies may arrive separately (k6).
    recorder.latency(7, 10_500);
    recorder.count(1, 0, 10_500);
    recorder.count(0, 1, 10_600);
    const second = recorder.takeInterval()!;
    expect(second).toMatchObject({ requests: 1, errors: 1, startedAt: 10_500, endedAt: 10_600 });
    clock = 11_000;
    const summary = recorder.summary();
    // From the first sample, not from the recorder's creation at 10_000: the engine's start-up sent nothing.
    expect(summary).toMatchObject({ requests: 3, errors: 2, startedAt: 10_100, endedAt: 11_000 });
    const merged = LatencyHistogram.decode(first.histogram).merge(LatencyHistogram.decode(second.histogram));
    expect(LatencyHistogram.decode(summary.histogram).encode()).toEqual(merged.encode());
  });

  test('snapshots an engine made merge exactly, with their time spans and a times count for repeated latencies', () => {
    const recorder = new MetricRecorder(() => 20_000);
    const engine = new LatencyHistogram();
    for (const ms of [1, 2, 3, 250]) engine.record(ms);
    recorder.absorb({ histogram: engine, requests: 4, errors: 1, startedAt: 20_100, endedAt: 20_600 });
    recorder.latency(250, 20_700, 3);
    recorder.count(3, 0, 20_700);
    const interval = recorder.takeInterval(21_000)!;
    expect(interval).toMatchObject({ requests: 7, errors: 1, startedAt: 20_100, endedAt: 20_700 });
    const expected = new LatencyHistogram();
    for (const ms of [1, 2, 3, 250, 250, 250, 250]) expected.record(ms);
    expect(interval.histogram).toEqual(expected.encode());
  });

  test('an empty snapshot', () => {
    const empty = emptySnapshot(5, 9);
    expect(empty).toMatchObject({ requests: 0, errors: 0, startedAt: 5, endedAt: 9 });
    expect(LatencyHistogram.decode(empty.histogram).count).toBe(0);
  });
});
