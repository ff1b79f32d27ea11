/**
 * Reads a k6 run: requests, failures and latencies come from the loadplane output's snapshot lines on stdout (`--out
 * loadplane`, k6-snapshot.ts) or, with a k6 without the extension, from the JSON sample file (`--out json`, one object
 * per line, https://grafana.com/docs/k6/latest/results-output/real-time/json/); the other stdout/stderr lines are the
 * log (logfmt lines tidied) and hold the diagnostics. The output's `loadplane-k6-endpoint {json}` lines are the results per
 * endpoint (a stock k6's JSON path has none).
 */
import { absorbEngineEndpoint, MetricRecorder, type ToolOutputParser } from 'loadplane/plugin';
import { type K6Diagnostics, k6Outcome } from './k6-exit-codes.ts';
import { formatK6LogLine, parseK6LogLine } from './k6-log-line.ts';
import { k6EndpointPrefix, k6SnapshotPrefix, readK6Snapshot } from './k6-snapshot.ts';

const wanted = new Set(['http_req_duration', 'http_reqs', 'http_req_failed']);

/**
 * k6 writes Points as `{"metric":"…","type":"Point","data":{"time":"…","value":…,"tags":…}}` (easyjson, fixed field
 * order); matching that prefix skips a JSON.parse of the tags for the hot path: a busy run writes ~16 lines per request.
 */
const fastPoint = /^\{"metric":"(http_req_duration|http_reqs|http_req_failed)","type":"Point","data":\{"time":"([^"]+)","value":([^,}]+)/;
const crossed = /thresholds on metrics? '?([^']+?)'? ha(?:ve|s) been crossed/;

/** RFC 3339 with nanoseconds → epoch ms (Date.parse wants at most milliseconds). */
function epochMs(time: string, fallback: number): number {
  const parsed = Date.parse(time.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isFinite(parsed) ? parsed : fallback;
}

interface Point {
  metric: string;
  time: string;
  value: number;
}

function readPoint(line: string): Point | null {
  const fast = fastPoint.exec(line);
  if (fast) return { metric: fast[1]!, time: fast[2]!, value: Number(fast[3]) };
  if (!line.includes('"Point"') || !line.includes('"http_req')) return null;
  try {
    const parsed = JSON.parse(line) as { type?: string; metric?: string; data?: { time?: string; value?: number } };
    if (parsed.type !== 'Point' || !parsed.metric || !wanted.has(parsed.metric) || typeof parsed.data?.value !== 'number') return null;
    return { metric: parsed.metric, time: parsed.data.time ?? '', value: parsed.data.value };
  } catch {
    return null;
  }
}

export function createK6Parser(now: () => number = Date.now): ToolOutputParser {
  const windows = new MetricRecorder(now);
  const diagnostics: K6Diagnostics = {};

  return {
    onOutput(source, line) {
      if (source === 'out' && line.startsWith(k6SnapshotPrefix)) {
        // A torn or foreign line with the prefix throws here; the agent then logs it as it is, which shows the fault.
        windows.absorb(readK6Snapshot(line)!);
        return null;
      }
      // One endpoint's interval (the `name` tag, else the URL) with its failures: a torn one is logged as it is.
      if (source === 'out' && line.startsWith(k6EndpointPrefix) && absorbEngineEndpoint(windows, line.slice(k6EndpointPrefix.length))) return null;
      const log = parseK6LogLine(line);
      if (!log) return line;
      if (log.level === 'error' || log.level === 'fatal') {
        const thresholds = crossed.exec(log.message);
        if (thresholds) diagnostics.crossedThresholds = thresholds[1]!.replace(/'/g, '');
        else diagnostics.lastError = log.message;
      }
      return formatK6LogLine(log);
    },
    onSample(line) {
      const point = readPoint(line);
      if (!point || !Number.isFinite(point.value)) return;
      const at = epochMs(point.time, now());
      if (point.metric === 'http_req_duration') windows.latency(point.value, at);
      else if (point.metric === 'http_reqs') windows.count(point.value, 0, at);
      else if (point.value !== 0) windows.count(0, 1, at); // http_req_failed: a rate, 1 for a failed request
    },
    takeInterval: (at) => windows.takeInterval(at),
    summary: () => windows.summary(),
    outcome: (exitCode, signal) => k6Outcome(exitCode, signal, diagnostics),
  };
}
