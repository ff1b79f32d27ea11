/**
 * Reads a snapshot an engine-side hook printed (already a histogram, not samples), checked, for MetricRecorder.absorb:
 * for load-tool plugins whose engine aggregates itself (Locust's request hook, Artillery's plugin).
 */
import { type EncodedHistogram, LatencyHistogram } from './histogram.ts';

const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);
const epoch = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null);

/** A snapshot from the engine's hook, checked: null when it is not one (a torn or foreign line). */
export function readEngineSnapshot(json: string): { histogram: LatencyHistogram; requests: number; errors: number; startedAt: number; endedAt: number } | null {
  let parsed: { histogram?: EncodedHistogram; requests?: unknown; errors?: unknown; startedAt?: unknown; endedAt?: unknown };
  try {
    parsed = JSON.parse(json) as typeof parsed;
  } catch {
    return null;
  }
  const requests = count(parsed?.requests);
  const errors = count(parsed?.errors);
  const startedAt = epoch(parsed?.startedAt);
  const endedAt = epoch(parsed?.endedAt);
  if (requests === null || errors === null || startedAt === null || endedAt === null || errors > requests) return null;
  let histogram: LatencyHistogram;
  try {
    histogram = LatencyHistogram.decode(parsed.histogram!);
  } catch {
    return null;
  }
  return { histogram, requests, errors, startedAt, endedAt: Math.max(endedAt, startedAt) };
}
