/** Builds OTLP JSON export bodies (the OTLP/HTTP JSON encoding) for the receiver's tests and benchmark. */

export type Json = Record<string, unknown>;

export const attr = (key: string, value: string | number | boolean): Json => ({
  key,
  value: typeof value === 'string' ? { stringValue: value } : typeof value === 'boolean' ? { boolValue: value } : Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value },
});

export const nanos = (ms: number) => `${BigInt(Math.round(ms * 1000)) * 1000n}`;

export interface ExportOptions {
  resource?: Record<string, string | number | boolean>;
  metrics: Json[];
}

export const exportBody = ({ resource = {}, metrics }: ExportOptions): Json => ({
  resourceMetrics: [
    {
      resource: { attributes: Object.entries(resource).map(([k, v]) => attr(k, v)) },
      scopeMetrics: [{ scope: { name: 'loadplane-tests' }, metrics }],
    },
  ],
});

export const gauge = (name: string, points: { ms: number; value: number; attributes?: Record<string, string | number | boolean> }[], unit = '') => ({
  name,
  unit,
  gauge: { dataPoints: points.map((p) => ({ timeUnixNano: nanos(p.ms), asDouble: p.value, attributes: Object.entries(p.attributes ?? {}).map(([k, v]) => attr(k, v)) })) },
});

export const counter = (name: string, points: { ms: number; value: number; attributes?: Record<string, string | number | boolean> }[]) => ({
  name,
  sum: {
    aggregationTemporality: 2,
    isMonotonic: true,
    dataPoints: points.map((p) => ({ timeUnixNano: nanos(p.ms), asInt: String(p.value), attributes: Object.entries(p.attributes ?? {}).map(([k, v]) => attr(k, v)) })),
  },
});

export const histogramMetric = (name: string, ms: number, h: { count: number; sum: number; min: number; max: number }) => ({
  name,
  unit: 'ms',
  histogram: {
    aggregationTemporality: 2,
    dataPoints: [{ timeUnixNano: nanos(ms), count: String(h.count), sum: h.sum, min: h.min, max: h.max, bucketCounts: ['1', String(h.count - 1)], explicitBounds: [10] }],
  },
});

export const exponentialHistogramMetric = (name: string, ms: number, h: { count: number; sum: number }) => ({
  name,
  exponentialHistogram: {
    aggregationTemporality: 1,
    dataPoints: [{ timeUnixNano: nanos(ms), count: String(h.count), sum: h.sum, scale: 3, zeroCount: '0', positive: { offset: 2, bucketCounts: [String(h.count)] } }],
  },
});
