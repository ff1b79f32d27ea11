/**
 * Reads the per-millisecond latency counts the JVM engines' hooks print once a second (scripts/engines/jvm-metrics,
 * used by Loadplane's Gatling stats engine and JMeter listener): `@loadplane-metrics {"from":<ms>,"to":<ms>,
 * "ok":{"<latency ms>":<n>},"ko":{...}}`. The counts are exact at the engines' own millisecond resolution and go into a
 * MetricRecorder; the load's window (first request's start to last response's end) is kept for the summary, so a JVM's
 * start-up (and Gatling's compile) does not dilute requests/s. `@loadplane-endpoint {"name":..., "from", "to", "ok", "ko",
 * "failures":[{kind, code, message, count}]}` lines (one per request name, before the second's line) are the same
 * counts per endpoint (JMeter's sampler label, Gatling's request name), for the results per endpoint.
 */
import type { MetricSnapshot } from '../../capabilities/load-tool.ts';
import { type FailureDetail, MetricRecorder } from './metric-recorder.ts';

export const latencyCountsPrefix = '@loadplane-metrics ';
/** One endpoint's counts of the same second, printed before the second's counts line. */
export const endpointCountsPrefix = '@loadplane-endpoint ';

interface LatencyCountsLine {
  from: number;
  to: number;
  ok: Record<string, number>;
  ko: Record<string, number>;
}

const isCounts = (value: unknown): value is Record<string, number> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseLine(line: string): LatencyCountsLine | null {
  try {
    const parsed = JSON.parse(line.slice(latencyCountsPrefix.length)) as Partial<LatencyCountsLine> | null;
    if (!parsed || !Number.isFinite(parsed.from) || !Number.isFinite(parsed.to) || !isCounts(parsed.ok) || !isCounts(parsed.ko)) return null;
    return parsed as LatencyCountsLine;
  } catch {
    return null;
  }
}

export class LatencyCountsReader {
  private firstStart: number | null = null;
  private lastEnd: number | null = null;

  constructor(readonly recorder: MetricRecorder = new MetricRecorder()) {}

  /** Records a counts line and answers true; false for any other line, and for a torn one (to be logged as it is). */
  read(line: string): boolean {
    if (line.startsWith(endpointCountsPrefix)) return this.readEndpoint(line.slice(endpointCountsPrefix.length));
    if (!line.startsWith(latencyCountsPrefix)) return false;
    const counts = parseLine(line);
    if (!counts) return false;
    this.firstStart = Math.min(this.firstStart ?? counts.from, counts.from);
    this.lastEnd = Math.max(this.lastEnd ?? counts.to, counts.to);
    // The window's first start and last end set the snapshot's time span; each latency lands at the window's end.
    this.recorder.count(0, 0, counts.from);
    for (const [byLatency, failed] of [[counts.ok, false], [counts.ko, true]] as const) {
      for (const [ms, times] of Object.entries(byLatency)) {
        const latency = Number(ms);
        if (!Number.isFinite(latency) || latency < 0 || !Number.isInteger(times) || times <= 0) continue;
        this.recorder.latency(latency, counts.to, times);
        this.recorder.count(times, failed ? times : 0, counts.to);
      }
    }
    return true;
  }

  /** An endpoint's line: only the endpoint's figures and failures (the second's own line carries the totals). */
  private readEndpoint(json: string): boolean {
    let parsed: { name?: unknown; ok?: unknown; ko?: unknown; failures?: unknown } | null;
    try {
      parsed = JSON.parse(json) as typeof parsed;
    } catch {
      return false;
    }
    if (!parsed || typeof parsed.name !== 'string' || !isCounts(parsed.ok) || !isCounts(parsed.ko)) return false;
    const name = parsed.name;
    for (const [byLatency, failed] of [[parsed.ok, false], [parsed.ko, true]] as const) {
      for (const [ms, times] of Object.entries(byLatency)) {
        const latency = Number(ms);
        if (!Number.isFinite(latency) || latency < 0 || !Number.isInteger(times) || times <= 0) continue;
        this.recorder.absorbEndpoint(name, { latencyMs: latency, times, requests: times, errors: failed ? times : 0 });
      }
    }
    if (Array.isArray(parsed.failures)) {
      for (const failure of parsed.failures as { kind?: unknown; code?: unknown; message?: unknown; count?: unknown }[]) {
        if (!failure || typeof failure.count !== 'number' || !['status', 'network', 'check', 'script'].includes(failure.kind as string)) continue;
        this.recorder.failure(name, { kind: failure.kind as FailureDetail['kind'], code: String(failure.code ?? ''), message: String(failure.message ?? '') }, failure.count);
      }
    }
    return true;
  }

  takeInterval(now?: number): MetricSnapshot | null {
    return this.recorder.takeInterval(now);
  }

  /** The whole run over the load's own window once a line came, else the recorder's. */
  summary(now?: number): MetricSnapshot {
    const summary = this.recorder.summary(now);
    if (this.firstStart === null || this.lastEnd === null) return summary;
    return { ...summary, startedAt: this.firstStart, endedAt: Math.max(this.lastEnd, this.firstStart) };
  }
}
