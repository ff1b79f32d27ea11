import { describe, expect, test } from 'bun:test';
import { silentLogger } from '../kernel/logger.ts';
import type { Calibration } from './calibration.ts';
import { createCalibrationScheduler } from './calibration-scheduler.ts';

const figure: Calibration = { requests_per_sec: 1234, vus: 4, duration_ms: 3000 };

/** A scheduler whose measurements the test ends by hand; `busy` is what the agent would say of its runs. */
function world() {
  const state = { busy: false, reports: [] as Calibration[], measuring: [] as { signal: AbortSignal; end(result: Calibration | null): void }[] };
  const scheduler = createCalibrationScheduler({
    busy: () => state.busy,
    measure: (signal) =>
      new Promise<Calibration | null>((resolve) => {
        state.measuring.push({ signal, end: resolve });
      }),
    report: (calibration) => state.reports.push(calibration),
    logger: silentLogger,
  });
  return { state, scheduler };
}

/** Lets the scheduler's promise chain (then, catch, finally) run: one macrotask turn, no wall-clock wait. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('calibration scheduler', () => {
  test('a request while idle measures once and reports the figure', async () => {
    const { state, scheduler } = world();
    scheduler.request();
    scheduler.request(); // one in progress: the second is due after it
    expect(state.measuring.length).toBe(1);
    state.measuring[0]!.end(figure);
    await settled();
    expect(state.reports).toEqual([figure]);
    // The request that came meanwhile runs now.
    expect(state.measuring.length).toBe(2);
    state.measuring[1]!.end(null);
    await settled();
    expect(state.reports).toEqual([figure]);
    expect(state.measuring.length).toBe(2);
  });

  test('busy: nothing starts until the agent is idle', async () => {
    const { state, scheduler } = world();
    state.busy = true;
    scheduler.request();
    expect(state.measuring.length).toBe(0);
    scheduler.idle();
    expect(state.measuring.length).toBe(0);
    state.busy = false;
    scheduler.idle();
    expect(state.measuring.length).toBe(1);
  });

  test('a run cancels a calibration in progress: no report, and it is due again once idle', async () => {
    const { state, scheduler } = world();
    scheduler.request();
    const first = state.measuring[0]!;
    state.busy = true;
    scheduler.yieldToRun();
    expect(first.signal.aborted).toBe(true);
    // A measurement that still produced a figure after the abort is not reported.
    first.end(figure);
    await settled();
    expect(state.reports).toEqual([]);
    expect(state.measuring.length).toBe(1);
    state.busy = false;
    scheduler.idle();
    expect(state.measuring.length).toBe(2);
    expect(state.measuring[1]!.signal.aborted).toBe(false);
  });

  test('stop aborts the calibration in progress and starts no other', async () => {
    const { state, scheduler } = world();
    scheduler.request();
    scheduler.stop();
    expect(state.measuring[0]!.signal.aborted).toBe(true);
    scheduler.request();
    scheduler.idle();
    expect(state.measuring.length).toBe(1);
  });
});
