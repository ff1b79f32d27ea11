/**
 * Reads a Locust run: `LOADPLANE_METRICS {json}` lines from our hook are the metrics, `LOADPLANE_ENDPOINT {json}` lines
 * the results per request name (both kept out of the log); every other
 * line is logged as Locust printed it, and its errors are kept for the outcome's reason.
 */
import { absorbEngineEndpoint, engineEndpointPrefix, MetricRecorder, readEngineSnapshot, type ToolOutputParser } from 'loadplane/plugin';
import { type LocustDiagnostics, locustOutcome } from './locust-exit-codes.ts';
import { locustMetricsPrefix } from './locust-metrics-hook.ts';

// `[2026-11-23 10:38:12,345] host/ERROR/locust.main: message`
const locustLog = /^\[[^\]]+\] [^/]*\/(ERROR|CRITICAL)\/[^:]+: (.+)$/;
// A Python exception's last line: `SyntaxError: invalid syntax`, `ModuleNotFoundError: No module named 'x'`.
const pythonError = /^([A-Za-z_][\w.]*(?:Error|Exception)): (.+)$/;

export function createLocustParser(now: () => number = Date.now): ToolOutputParser {
  const totals = new MetricRecorder(now);
  const diagnostics: LocustDiagnostics = {};

  return {
    onOutput(_source, line) {
      if (line.startsWith(locustMetricsPrefix)) {
        const snapshot = readEngineSnapshot(line.slice(locustMetricsPrefix.length));
        if (snapshot) totals.absorb(snapshot);
        return null;
      }
      if (line.startsWith(engineEndpointPrefix) && absorbEngineEndpoint(totals, line.slice(engineEndpointPrefix.length))) return null;
      const logged = locustLog.exec(line);
      if (logged) diagnostics.lastError = logged[2]!;
      else {
        const error = pythonError.exec(line.trim());
        if (error) diagnostics.lastError = `${error[1]}: ${error[2]}`;
      }
      return line;
    },
    takeInterval: (at) => totals.takeInterval(at),
    summary: () => totals.summary(),
    outcome: (exitCode, signal) => locustOutcome(exitCode, signal, diagnostics),
  };
}
