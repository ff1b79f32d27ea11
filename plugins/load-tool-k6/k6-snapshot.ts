/**
 * The snapshot lines of Loadplane's k6 output extension (`--out loadplane`, ./xk6-output): every interval, one
 * `loadplane-k6-snapshot {json}` line on stdout with the interval's latency histogram (the LatencyHistogram v1
 * encoding, made in Go) and its request and error counts.
 */
import { type EncodedHistogram, LatencyHistogram } from 'loadplane/plugin';

/** Must equal SnapshotPrefix in xk6-output/output.go. */
export const k6SnapshotPrefix = 'loadplane-k6-snapshot ';
/**
 * Must equal EndpointPrefix in xk6-output/output.go: one endpoint's interval (name, histogram, requests, errors,
 * startedAt, endedAt, failures), as absorbEngineEndpoint reads it.
 */
export const k6EndpointPrefix = 'loadplane-k6-endpoint ';

export interface K6Snapshot {
  histogram: LatencyHistogram;
  requests: number;
  errors: number;
  /** Epoch milliseconds of the interval's first and last sample. */
  startedAt: number;
  endedAt: number;
}

const count = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** The snapshot a line carries; null for any other line; throws for a snapshot line that does not read. */
export function readK6Snapshot(line: string): K6Snapshot | null {
  if (!line.startsWith(k6SnapshotPrefix)) return null;
  const parsed = JSON.parse(line.slice(k6SnapshotPrefix.length)) as {
    histogram?: EncodedHistogram;
    requests?: unknown;
    errors?: unknown;
    startedAt?: unknown;
    endedAt?: unknown;
  };
  if (!count(parsed.requests) || !count(parsed.errors) || !count(parsed.startedAt) || !count(parsed.endedAt)) {
    throw new Error('a k6 snapshot needs whole requests, errors, startedAt and endedAt');
  }
  return {
    histogram: LatencyHistogram.decode(parsed.histogram as EncodedHistogram),
    requests: parsed.requests as number,
    errors: parsed.errors as number,
    startedAt: parsed.startedAt as number,
    endedAt: parsed.endedAt as number,
  };
}
