import { describe, expect, test } from 'bun:test';
import { createManualClock } from '../../tests/helpers/manual-clock.ts';
import { MetricRecorder } from '../domain/metrics/metric-recorder.ts';
import { startProgressReporter } from './progress-reporter.ts';

function reporter(quietMs = 2_000) {
  const clock = createManualClock();
  const startedAt = clock.now();
  const lines: { text: string; afterMs: number }[] = [];
  const progress = startProgressReporter({ clock, quietMs, emit: (text, at) => lines.push({ text, afterMs: at - startedAt }) });
  return { clock, lines, progress };
}

/** A snapshot of `requests` requests of `latencyMs` each, `errors` of them failed. */
function snapshot(requests: number, latencyMs: number, errors = 0) {
  const recorder = new MetricRecorder(() => 0);
  for (let i = 0; i < requests; i++) recorder.request(latencyMs, i < errors, 0);
  return recorder.takeInterval(0)!;
}

describe('startProgressReporter', () => {
  test('a silent tool gets a line every quiet spell, from the first one on, "no requests yet" before any', () => {
    const { clock, lines } = reporter();
    clock.advance(1_999);
    expect(lines).toEqual([]);
    clock.advance(8_001);
    expect(lines.map((line) => line.afterMs)).toEqual([2_000, 4_000, 6_000, 8_000, 10_000]);
    expect(lines[0]!.text).toBe('[loadplane] progress: 2 s, no requests yet');
    expect(lines[4]!.text).toBe('[loadplane] progress: 10 s, no requests yet');
  });

  test('a line the tool printed puts the next agent line off by a whole quiet spell', () => {
    const { clock, lines, progress } = reporter();
    clock.advance(1_500);
    progress.heard();
    clock.advance(3_000); // 4.5 s
    expect(lines.map((line) => line.afterMs)).toEqual([3_500]);
  });

  test('a tool that prints at least every quiet spell never gets a line, however long it runs', () => {
    const { clock, lines, progress } = reporter();
    for (let second = 0; second < 120; second++) {
      clock.advance(1_000);
      progress.heard();
    }
    for (let step = 0; step < 60; step++) {
      clock.advance(1_999);
      progress.heard();
    }
    expect(lines).toEqual([]);
  });

  test('the figures: totals so far; rate and p95 of the snapshots since the previous line', () => {
    const { clock, lines, progress } = reporter();
    // One snapshot a second, as the agent takes them: 100 requests of 10 ms, then 300 of 40 ms with 3 errors each.
    for (const [requests, latencyMs, errors] of [[100, 10, 0], [100, 10, 0], [300, 40, 3], [300, 40, 3]] as const) {
      clock.advance(999);
      progress.absorb(snapshot(requests, latencyMs, errors));
      clock.advance(1);
    }
    expect(lines.map((line) => line.text)).toEqual([
      // The rate's window runs from one snapshot to another: start to 1.999 s, then 1.999 s to 3.999 s.
      '[loadplane] progress: 2 s, 200 requests (100.1/s), errors 0.0 %, p95 10.0 ms',
      '[loadplane] progress: 4 s, 800 requests (300.0/s), errors 0.8 %, p95 40.0 ms',
    ]);
  });

  test('a tool that stalls: its requests so far, a rate of 0 and no p95 in the window without any', () => {
    const { clock, lines, progress } = reporter();
    clock.advance(1_000);
    progress.absorb(snapshot(50, 5));
    clock.advance(3_000);
    expect(lines.map((line) => line.text)).toEqual([
      '[loadplane] progress: 2 s, 50 requests (50.0/s), errors 0.0 %, p95 5.0 ms',
      '[loadplane] progress: 4 s, 50 requests (0.0/s), errors 0.0 %',
    ]);
  });

  test('a sink that throws once does not stop the lines after it', () => {
    const clock = createManualClock();
    const seen: string[] = [];
    startProgressReporter({
      clock,
      quietMs: 2_000,
      emit: (text) => {
        seen.push(text);
        if (seen.length === 1) throw new Error('socket gone');
      },
    });
    clock.advance(6_000);
    expect(seen).toHaveLength(3);
  });

  test('stop: no line after it, no timer left behind', () => {
    const { clock, lines, progress } = reporter();
    clock.advance(2_500);
    progress.stop();
    clock.advance(60_000);
    expect(lines).toHaveLength(1);
    expect(clock.pending()).toBe(0);
  });
});
