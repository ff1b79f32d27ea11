/**
 * Decodes an OTLP ExportMetricsServiceRequest in OTLP's JSON encoding (the protobuf JSON mapping: lowerCamelCase
 * fields, 64-bit integers as decimal strings or numbers, enums as integers, bytes as base64). Unknown fields are
 * ignored as OTLP requires; a field of the wrong type is a 400 that names its path.
 */
import { badRequest } from '../../kernel/errors.ts';
import { histogramSamples, type Labels, type OtlpDataPoint, type OtlpExport, type OtlpKind, type OtlpMetric, PointBudget } from './otlp-model.ts';

type Json = Record<string, unknown>;

const wrong = (path: string, expected: string) => badRequest(`OTLP JSON: ${path} must be ${expected}`, { field: path });

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw wrong(path, 'an object');
  return value as Json;
}

function list(value: unknown, path: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw wrong(path, 'an array');
  return value;
}

function text(value: unknown, path: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw wrong(path, 'a string');
  return value;
}

/** A double: a JSON number, or "NaN" / "Infinity" / "-Infinity" as the JSON mapping writes them. */
function double(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return value;
  if (value === 'NaN' || value === 'Infinity' || value === '-Infinity') return Number(value);
  throw wrong(path, 'a number');
}

/** A 64-bit integer: a decimal string (the mapping's form) or a JSON number. */
function int64(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) return Number(value);
  throw wrong(path, 'an integer (a decimal string or a number)');
}

/** time_unix_nano to microseconds, exactly. */
function micros(value: unknown, path: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) return Number(BigInt(value) / 1000n);
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return Math.floor(value / 1000);
  throw wrong(path, 'nanoseconds since the epoch (a decimal string)');
}

function anyValue(value: unknown, path: string): unknown {
  if (value === undefined || value === null) return '';
  const v = object(value, path);
  if ('stringValue' in v) return text(v.stringValue, `${path}.stringValue`);
  if ('boolValue' in v) {
    if (typeof v.boolValue !== 'boolean') throw wrong(`${path}.boolValue`, 'a boolean');
    return String(v.boolValue);
  }
  if ('intValue' in v) return String(int64(v.intValue, `${path}.intValue`));
  if ('doubleValue' in v) return String(double(v.doubleValue, `${path}.doubleValue`));
  if ('arrayValue' in v) {
    const values = list(object(v.arrayValue, `${path}.arrayValue`).values, `${path}.arrayValue.values`);
    return values.map((item, i) => anyValue(item, `${path}.arrayValue.values[${i}]`));
  }
  if ('kvlistValue' in v) return attributes(object(v.kvlistValue, `${path}.kvlistValue`).values, `${path}.kvlistValue.values`);
  if ('bytesValue' in v) return text(v.bytesValue, `${path}.bytesValue`);
  return '';
}

function attributes(value: unknown, path: string): Labels {
  const labels: Labels = {};
  list(value, path).forEach((item, i) => {
    const kv = object(item, `${path}[${i}]`);
    const key = text(kv.key, `${path}[${i}].key`);
    const decoded = anyValue(kv.value, `${path}[${i}].value`);
    labels[key] = typeof decoded === 'string' ? decoded : JSON.stringify(decoded);
  });
  return labels;
}

const dataFields: [string, OtlpKind][] = [
  ['gauge', 'gauge'],
  ['sum', 'sum'],
  ['histogram', 'histogram'],
  ['exponentialHistogram', 'exponential_histogram'],
  ['summary', 'summary'],
];

function point(value: unknown, kind: OtlpKind, path: string): OtlpDataPoint {
  const p = object(value, path);
  const common = { attributes: attributes(p.attributes, `${path}.attributes`), timeUs: micros(p.timeUnixNano, `${path}.timeUnixNano`) };
  if (kind === 'gauge' || kind === 'sum') {
    const asInt = int64(p.asInt, `${path}.asInt`);
    const value = asInt ?? double(p.asDouble, `${path}.asDouble`) ?? 0;
    return { ...common, samples: [['', value]] };
  }
  const count = int64(p.count, `${path}.count`) ?? 0;
  const sum = double(p.sum, `${path}.sum`);
  if (kind === 'summary') return { ...common, samples: histogramSamples(count, sum ?? 0, undefined, undefined) };
  return { ...common, samples: histogramSamples(count, sum, double(p.min, `${path}.min`), double(p.max, `${path}.max`)) };
}

function metric(value: unknown, path: string, budget: PointBudget): OtlpMetric | null {
  const m = object(value, path);
  const name = text(m.name, `${path}.name`);
  const unit = text(m.unit, `${path}.unit`);
  for (const [field, kind] of dataFields) {
    if (m[field] === undefined || m[field] === null) continue;
    const data = object(m[field], `${path}.${field}`);
    const points = list(data.dataPoints, `${path}.${field}.dataPoints`).map((item, i) => {
      budget.take();
      return point(item, kind, `${path}.${field}.dataPoints[${i}]`);
    });
    return { name, unit, kind, points };
  }
  return null;
}

export function decodeMetricsJson(body: unknown, maxDataPoints: number): OtlpExport {
  const budget = new PointBudget(maxDataPoints);
  // A JSON document `null` (or a number, a list) is no ExportMetricsServiceRequest; an empty body never gets here.
  const root = object(body, 'the body');
  const resources = list(root.resourceMetrics, 'resourceMetrics').map((item, r) => {
    const rm = object(item, `resourceMetrics[${r}]`);
    const resource = rm.resource === undefined || rm.resource === null ? {} : object(rm.resource, `resourceMetrics[${r}].resource`);
    const metrics: OtlpMetric[] = [];
    list(rm.scopeMetrics, `resourceMetrics[${r}].scopeMetrics`).forEach((scope, s) => {
      const sm = object(scope, `resourceMetrics[${r}].scopeMetrics[${s}]`);
      list(sm.metrics, `resourceMetrics[${r}].scopeMetrics[${s}].metrics`).forEach((entry, m) => {
        const decoded = metric(entry, `resourceMetrics[${r}].scopeMetrics[${s}].metrics[${m}]`, budget);
        if (decoded) metrics.push(decoded);
      });
    });
    return { attributes: attributes(resource.attributes, `resourceMetrics[${r}].resource.attributes`), metrics };
  });
  return { resources, dataPoints: budget.count };
}

/** The response's JSON form: `{}` on full success, else `partialSuccess` (int64 as a decimal string, as the mapping writes it). */
export function metricsResponseJson(rejected: number, message: string): Json {
  if (rejected === 0 && message === '') return {};
  return { partialSuccess: { rejectedDataPoints: String(rejected), errorMessage: message } };
}
