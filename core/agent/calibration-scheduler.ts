/**
 * When the agent calibrates: once after registration and on each request of the server, but only while it runs no
 * assignment, and a run always wins. An assignment arriving mid-calibration cancels it at once (no figure is reported,
 * the engine is killed without grace) and the calibration is due again once the agent is idle: a run is never delayed
 * or shares the machine with a calibration's load for longer than it takes to kill one process. That is also what
 * keeps the in-process local agent of `npm start` from slowing a first run.
 */
import type { Logger } from '../kernel/logger.ts';
import type { Calibration } from './calibration.ts';

export interface CalibrationScheduler {
  /** Calibrate once idle (registration, or the server asked). */
  request(): void;
  /** The agent may be idle now (a run ended): start what is due. */
  idle(): void;
  /** A run starts: cancel a calibration in progress; it is due again afterwards. */
  yieldToRun(): void;
  stop(): void;
}

export function createCalibrationScheduler(options: {
  busy(): boolean;
  measure(signal: AbortSignal): Promise<Calibration | null>;
  report(calibration: Calibration): void;
  logger: Logger;
}): CalibrationScheduler {
  let due = false;
  let current: AbortController | null = null;
  let stopped = false;

  function start() {
    if (stopped || !due || current || options.busy()) return;
    due = false;
    const abort = new AbortController();
    current = abort;
    void options
      .measure(abort.signal)
      .then((calibration) => {
        if (abort.signal.aborted) return;
        if (calibration) {
          options.logger.info('calibrated', { requests_per_sec: calibration.requests_per_sec, vus: calibration.vus, duration_ms: calibration.duration_ms });
          options.report(calibration);
        } else options.logger.warn('calibration measured nothing; the machine keeps the capacity it had');
      })
      .catch((error) => options.logger.warn('calibration failed', { error: String(error) }))
      .finally(() => {
        if (current === abort) current = null;
        // A request that came while this one ran (or a cancelled one) starts now, if nothing else runs.
        start();
      });
  }

  return {
    request() {
      due = true;
      start();
    },
    idle: start,
    yieldToRun() {
      if (!current) return;
      current.abort();
      current = null;
      due = true;
    },
    stop() {
      stopped = true;
      current?.abort();
      current = null;
    },
  };
}
