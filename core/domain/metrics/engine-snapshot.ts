/**
 * Reads a snapshot an engine-side hook printed (already a histogram, not samples), checked, for MetricRecorder.absorb:
 * for load-tool plugins whose engine aggregates itself (Locust's request hook, Artillery's plugin); and their
 * per-endpoint lines, for the results per endpoint.
 */
import { type EncodedHistogram, inspectEncoded, LatencyHistogram } from './histogram.ts';
import type { FailureDetail, MetricRecorder } from './metric-recorder.ts';

const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);
const epoch = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null);

type EngineSnapshot = { histogram: LatencyHistogram; requests: number; errors: number; startedAt: number; endedAt: number };
type ParsedSnapshot = { histogram?: EncodedHistogram; requests?: unknown; errors?: unknown; startedAt?: unknown; endedAt?: unknown };

const parseJson = (json: string): unknown => {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
};

/** A snapshot from the engine's hook, checked: null when it is not one (a torn or foreign line). */
export function readEngineSnapshot(json: string): EngineSnapshot | null {
  return checkedSnapshot(parseJson(json) as ParsedSnapshot | null);
}

/** A snapshot's counts and times, checked: null when they are not sound. */
function checkedFigures(parsed: ParsedSnapshot | null): { requests: number; errors: number; startedAt: number; endedAt: number } | null {
  const requests = count(parsed?.requests);
  const errors = count(parsed?.errors);
  const startedAt = epoch(parsed?.startedAt);
  const endedAt = epoch(parsed?.endedAt);
  if (!parsed || requests === null || errors === null || startedAt === null || endedAt === null || errors > requests) return null;
  return { requests, errors, startedAt, endedAt };
}

function checkedSnapshot(parsed: ParsedSnapshot | null): EngineSnapshot | null {
  const figures = checkedFigures(parsed);
  if (!parsed || !figures) return null;
  const { requests, errors, startedAt, endedAt } = figures;
  let histogram: LatencyHistogram;
  try {
    histogram = LatencyHistogram.decode(parsed.histogram!);
  } catch {
    return null;
  }
  return { histogram, requests, errors, startedAt, endedAt: Math.max(endedAt, startedAt) };
}

/** The prefix of an engine hook's per-endpoint line (Locust's hook, Artillery's plugin): `LOADPLANE_ENDPOINT {json}`. */
export const engineEndpointPrefix = 'LOADPLANE_ENDPOINT ';

const failureKinds = new Set(['status', 'network', 'check', 'script']);

/**
 * One endpoint's interval from an engine's hook into `recorder`: a snapshot as readEngineSnapshot reads it plus its
 * `name` and optional `failures` `[{kind, code, message, count}]`. Only the endpoint's figures and error groups: the
 * machine's own snapshot line carries the totals. False (nothing recorded) for a torn or foreign line.
 */
export function absorbEngineEndpoint(recorder: MetricRecorder, json: string): boolean {
  // Parsed once: an engine prints one such line per endpoint and interval (50 a second for a test of 50 steps).
  const endpoint = parseJson(json) as (ParsedSnapshot & { name?: unknown; failures?: unknown }) | null;
  const figures = checkedFigures(endpoint);
  if (!figures || !endpoint) return false;
  if (typeof endpoint.name !== 'string') return false;
  // The histogram goes to the recorder encoded, as printed: checked there as decoding checks it (a torn one throws
  // before anything is recorded), and sent on as it came when it is the endpoint's only one in the interval, not
  // decoded, merged and encoded again for the same string.
  const histogram = endpoint.histogram;
  if (!histogram) return false; // decode refuses a missing one
  try {
    // A line of failures alone (k6's failed checks, named by no request) adds no endpoint; its histogram is checked all
    // the same. A sound histogram's count is the samples of its buckets.
    if (figures.requests > 0 || histogram.count > 0) {
      recorder.absorbEndpoint(endpoint.name, { encoded: histogram, requests: figures.requests, errors: figures.errors });
    } else inspectEncoded(histogram);
  } catch {
    return false;
  }
  if (!Array.isArray(endpoint.failures)) return true;
  for (const failure of endpoint.failures as { kind?: unknown; code?: unknown; message?: unknown; count?: unknown }[]) {
    if (!failure || !failureKinds.has(failure.kind as string) || typeof failure.count !== 'number') continue;
    const detail: FailureDetail = { kind: failure.kind as FailureDetail['kind'], code: String(failure.code ?? ''), message: String(failure.message ?? '') };
    recorder.failure(endpoint.name, detail, failure.count);
  }
  return true;
}
