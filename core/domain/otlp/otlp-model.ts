/** What a decoded OTLP metrics export holds, whichever its encoding: resources, their metrics, and each data point's values. */
import { DomainError } from '../../kernel/errors.ts';

export const otlpKinds = ['gauge', 'sum', 'histogram', 'exponential_histogram', 'summary'] as const;
export type OtlpKind = (typeof otlpKinds)[number];

/** Attributes flattened to strings: scalars as their text, arrays and maps as JSON. */
export type Labels = Record<string, string>;

export interface OtlpDataPoint {
  attributes: Labels;
  /** time_unix_nano in microseconds (what PostgreSQL keeps); 0 when the exporter sent none. */
  timeUs: number;
  /**
   * The values this point stores, as [name suffix, value]: a gauge or sum point has one (''), a histogram
   * `.count`, `.sum`, `.min`, `.max` (those it carries), a summary `.count` and `.sum`.
   */
  samples: [string, number][];
}

export interface OtlpMetric {
  name: string;
  unit: string;
  kind: OtlpKind;
  points: OtlpDataPoint[];
}

export interface OtlpResourceMetrics {
  attributes: Labels;
  metrics: OtlpMetric[];
}

export interface OtlpExport {
  resources: OtlpResourceMetrics[];
  /** OTLP data points in the request (a histogram point counts once, whatever it stores). */
  dataPoints: number;
}

/** Counts data points while decoding, so an oversized export is refused before all of it is built. */
export class PointBudget {
  count = 0;
  constructor(readonly max: number) {}

  take(): void {
    if (++this.count > this.max) {
      throw new DomainError(
        'payload_too_large',
        `the export carries more than ${this.max} data points; at most ${this.max} per request: export in smaller batches (e.g. a shorter export interval)`,
      );
    }
  }
}

/** The samples of a histogram-like point: count always, sum/min/max when present. */
export function histogramSamples(count: number, sum: number | undefined, min: number | undefined, max: number | undefined): [string, number][] {
  const samples: [string, number][] = [['.count', count]];
  if (sum !== undefined) samples.push(['.sum', sum]);
  if (min !== undefined) samples.push(['.min', min]);
  if (max !== undefined) samples.push(['.max', max]);
  return samples;
}

/** nanoseconds since the epoch to microseconds. */
export const nanosToMicros = (nanos: bigint): number => Number(nanos / 1000n);

/** Data points one export may carry (an OpenTelemetry Collector's default batch is 8,192). */
export const maxDataPointsPerRequest = 10_000;
