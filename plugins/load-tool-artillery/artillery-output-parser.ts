/**
 * Reads an Artillery run: `LOADPLANE_METRICS {json}` lines from our plugin are the metrics, `LOADPLANE_ENDPOINT {json}`
 * lines the results per request name (both kept out of the log); every
 * other line is logged as Artillery printed it, and failed `ensure` checks and errors are kept for the outcome.
 */
import { absorbEngineEndpoint, engineEndpointPrefix, MetricRecorder, readEngineSnapshot, type ToolOutputParser } from 'loadplane/plugin';
import { type ArtilleryDiagnostics, artilleryOutcome } from './artillery-exit-codes.ts';
import { artilleryMetricsPrefix } from './artillery-metrics-plugin.ts';

const failedCheck = /^\s*fail: (.+?)\s*$/;
const error = /^\s*((?:Scenario validation error|Error|[A-Z]\w*Error|YAMLException)\b:? .+?)\s*$/;
// Colour codes, should a terminal setting bring them back.
const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

export function createArtilleryParser(now: () => number = Date.now): ToolOutputParser {
  const totals = new MetricRecorder(now);
  const diagnostics: ArtilleryDiagnostics = { failedChecks: [] };

  return {
    onOutput(_source, line) {
      if (line.startsWith(artilleryMetricsPrefix)) {
        const snapshot = readEngineSnapshot(line.slice(artilleryMetricsPrefix.length));
        if (snapshot) totals.absorb(snapshot);
        return null;
      }
      if (line.startsWith(engineEndpointPrefix) && absorbEngineEndpoint(totals, line.slice(engineEndpointPrefix.length))) return null;
      const plain = line.replace(ansi, '');
      const check = failedCheck.exec(plain);
      if (check) diagnostics.failedChecks.push(check[1]!);
      else {
        const problem = error.exec(plain);
        if (problem) diagnostics.lastError = problem[1]!;
      }
      return plain;
    },
    takeInterval: (at) => totals.takeInterval(at),
    summary: () => totals.summary(),
    outcome: (exitCode, signal) => artilleryOutcome(exitCode, signal, diagnostics),
  };
}
