/**
 * Reads hey's CSV (`-o csv`): one row per answered request (response-time and offset in seconds, status code), printed
 * when a run ends. Rows go into the run's mergeable histogram and counters, never into the log. hey leaves requests
 * that got no answer (refused, timed out) out of its CSV: with a request count, the missing rows are those errors.
 */
import { MetricRecorder, processOutcome, type ToolOutputParser } from '@loadplane/plugin-kit';

/** The header hey prints before its rows (github.com/rakyll/hey requester/print.go). */
export const csvHeader = 'response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset';

export function createHeyParser(options: { expectedRequests: number | null; now?: () => number }): ToolOutputParser {
  const now = options.now ?? Date.now;
  const recorder = new MetricRecorder(now);
  // Offsets count from the start of each hey run; a later run started about when the previous one printed its rows.
  let runStart = now();
  let lastAt = runStart;
  let reports = 0;
  let rows = 0;
  let lastError: string | null = null;
  return {
    onOutput(source, line) {
      if (source === 'err') {
        if (line.trim()) lastError = line.trim();
        return line;
      }
      if (line === csvHeader) {
        if (reports++ > 0) runStart = lastAt;
        return 'hey finished a run; its per-request results go into the metrics';
      }
      const fields = reports > 0 ? line.split(',') : [];
      if (fields.length === 8) {
        const seconds = Number(fields[0]);
        const status = Number(fields[6]);
        const offset = Number(fields[7]);
        if (Number.isFinite(seconds) && Number.isInteger(status) && Number.isFinite(offset)) {
          const at = Math.min(now(), runStart + (offset + seconds) * 1000);
          recorder.request(seconds * 1000, status >= 400, at);
          rows++;
          lastAt = Math.max(lastAt, at);
          return null;
        }
      }
      return line;
    },
    takeInterval: (at) => recorder.takeInterval(at),
    summary() {
      // Only once hey reported (a run that ended early reported nothing), and only what is still unaccounted for.
      const missing = options.expectedRequests !== null && reports > 0 ? options.expectedRequests - rows : 0;
      if (missing > 0) {
        recorder.count(missing, missing);
        rows += missing;
      }
      return recorder.summary();
    },
    outcome(exitCode, signal) {
      const outcome = processOutcome(exitCode, signal);
      // hey's usage errors say what was wrong on stderr: a better reason than the exit code.
      return outcome.status === 'failed' && exitCode !== null && lastError ? { status: 'failed', reason: `hey: ${lastError}` } : outcome;
    },
  };
}
