/**
 * Decodes an OTLP ExportMetricsServiceRequest (opentelemetry-proto, metrics/v1) from protobuf bytes, and encodes the
 * ExportMetricsServiceResponse. Field numbers follow opentelemetry/proto/metrics/v1/metrics.proto and common/v1; a
 * hand-written reader rather than a schema compiler: OTLP's few messages do not justify a runtime dependency.
 */
import { badRequest } from '../../kernel/errors.ts';
import { histogramSamples, type Labels, nanosToMicros, type OtlpDataPoint, type OtlpExport, type OtlpKind, type OtlpMetric, PointBudget } from './otlp-model.ts';
import { expectWire, ProtobufReader, WireType } from './protobuf-reader.ts';

export function decodeMetricsRequest(bytes: Uint8Array, maxDataPoints: number): OtlpExport {
  const budget = new PointBudget(maxDataPoints);
  const reader = new ProtobufReader(bytes);
  const resources: OtlpExport['resources'] = [];
  while (!reader.done) {
    const [field, wire] = reader.tag();
    if (field === 1) {
      expectWire(wire, WireType.LengthDelimited, 'resource_metrics');
      resources.push(resourceMetrics(reader.message(), budget));
    } else reader.skip(wire);
  }
  return { resources, dataPoints: budget.count };
}

function resourceMetrics(reader: ProtobufReader, budget: PointBudget) {
  let attributes: Labels = {};
  const metrics: OtlpMetric[] = [];
  while (!reader.done) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === WireType.LengthDelimited) attributes = resource(reader.message());
    else if (field === 2 && wire === WireType.LengthDelimited) scopeMetrics(reader.message(), budget, metrics);
    else reader.skip(wire);
  }
  return { attributes, metrics };
}

function resource(reader: ProtobufReader): Labels {
  const attributes: Labels = {};
  while (!reader.done) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === WireType.LengthDelimited) keyValue(reader.message(), attributes);
    else reader.skip(wire);
  }
  return attributes;
}

function scopeMetrics(reader: ProtobufReader, budget: PointBudget, into: OtlpMetric[]) {
  while (!reader.done) {
    const [field, wire] = reader.tag();
    if (field === 2 && wire === WireType.LengthDelimited) {
      const decoded = metric(reader.message(), budget);
      if (decoded) into.push(decoded);
    } else reader.skip(wire);
  }
}

const dataFields: Record<number, OtlpKind> = { 5: 'gauge', 7: 'sum', 9: 'histogram', 10: 'exponential_histogram', 11: 'summary' };

function metric(reader: ProtobufReader, budget: PointBudget): OtlpMetric | null {
  let name = '';
  let unit = '';
  let kind: OtlpKind | null = null;
  let points: OtlpDataPoint[] = [];
  while (!reader.done) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === WireType.LengthDelimited) name = reader.string();
    else if (field === 3 && wire === WireType.LengthDelimited) unit = reader.string();
    else if (dataFields[field] && wire === WireType.LengthDelimited) {
      kind = dataFields[field]!;
      points = dataPoints(reader.message(), kind, budget);
    } else reader.skip(wire);
  }
  return kind ? { name, unit, kind, points } : null;
}

/** Gauge, Sum, Histogram, ExponentialHistogram and Summary all keep their data points in field 1. */
function dataPoints(reader: ProtobufReader, kind: OtlpKind, budget: PointBudget): OtlpDataPoint[] {
  const points: OtlpDataPoint[] = [];
  while (!reader.done) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === WireType.LengthDelimited) {
      budget.take();
      const message = reader.message();
      points.push(kind === 'gauge' || kind === 'sum' ? numberPoint(message) : kind === 'summary' ? summaryPoint(message) : histogramPoint(message, kind));
    } else reader.skip(wire);
  }
  return points;
}

function numberPoint(reader: ProtobufReader): OtlpDataPoint {
  const attributes: Labels = {};
  let timeUs = 0;
  let value = 0;
  while (!reader.done) {
    const [field, wire] = reader.tag();
    if (field === 7 && wire === WireType.LengthDelimited) keyValue(reader.message(), attributes);
    else if (field === 3 && wire === WireType.Fixed64) timeUs = nanosToMicros(reader.fixed64Big());
    else if (field === 4 && wire === WireType.Fixed64) value = reader.double();
    else if (field === 6 && wire === WireType.Fixed64) value = reader.sfixed64();
    else reader.skip(wire);
  }
  return { attributes, timeUs, samples: [['', value]] };
}

/** HistogramDataPoint (attributes 9, min 11, max 12) and ExponentialHistogramDataPoint (attributes 1, min 12, max 13). */
function histogramPoint(reader: ProtobufReader, kind: OtlpKind): OtlpDataPoint {
  const explicit = kind === 'histogram';
  const attributesField = explicit ? 9 : 1;
  const minField = explicit ? 11 : 12;
  const attributes: Labels = {};
  let timeUs = 0;
  let count = 0;
  let sum: number | undefined;
  let min: number | undefined;
  let max: number | undefined;
  while (!reader.done) {
    const [field, wire] = reader.tag();
    if (field === attributesField && wire === WireType.LengthDelimited) keyValue(reader.message(), attributes);
    else if (field === 3 && wire === WireType.Fixed64) timeUs = nanosToMicros(reader.fixed64Big());
    else if (field === 4 && wire === WireType.Fixed64) count = reader.fixed64();
    else if (field === 5 && wire === WireType.Fixed64) sum = reader.double();
    else if (field === minField && wire === WireType.Fixed64) min = reader.double();
    else if (field === minField + 1 && wire === WireType.Fixed64) max = reader.double();
    else reader.skip(wire);
  }
  return { attributes, timeUs, samples: histogramSamples(count, sum, min, max) };
}

function summaryPoint(reader: ProtobufReader): OtlpDataPoint {
  const attributes: Labels = {};
  let timeUs = 0;
  let count = 0;
  let sum = 0;
  while (!reader.done) {
    const [field, wire] = reader.tag();
    if (field === 7 && wire === WireType.LengthDelimited) keyValue(reader.message(), attributes);
    else if (field === 3 && wire === WireType.Fixed64) timeUs = nanosToMicros(reader.fixed64Big());
    else if (field === 4 && wire === WireType.Fixed64) count = reader.fixed64();
    else if (field === 5 && wire === WireType.Fixed64) sum = reader.double();
    else reader.skip(wire);
  }
  return { attributes, timeUs, samples: histogramSamples(count, sum, undefined, undefined) };
}

/** Attribute values (arrays and maps of values) nested deeper than this are refused: each level recurses. */
const maxValueNesting = 32;

/** KeyValue {1: key, 2: AnyValue}: stored into `into` as text. */
function keyValue(reader: ProtobufReader, into: Labels, depth = 0) {
  let key = '';
  let value: unknown = '';
  while (!reader.done) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === WireType.LengthDelimited) key = reader.string();
    else if (field === 2 && wire === WireType.LengthDelimited) value = anyValue(reader.message(), depth);
    else reader.skip(wire);
  }
  into[key] = typeof value === 'string' ? value : JSON.stringify(value);
}

/** AnyValue: string 1, bool 2, int 3, double 4, array 5, kvlist 6, bytes 7 (as base64). */
function anyValue(reader: ProtobufReader, depth: number): unknown {
  if (depth > maxValueNesting) throw badRequest(`attribute values nest more than ${maxValueNesting} deep`);
  let value: unknown = '';
  while (!reader.done) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === WireType.LengthDelimited) value = reader.string();
    else if (field === 2 && wire === WireType.Varint) value = reader.varint() !== 0;
    else if (field === 3 && wire === WireType.Varint) value = reader.int64();
    else if (field === 4 && wire === WireType.Fixed64) value = reader.double();
    else if (field === 5 && wire === WireType.LengthDelimited) value = arrayValue(reader.message(), depth + 1);
    else if (field === 6 && wire === WireType.LengthDelimited) {
      const map: Labels = {};
      const list = reader.message();
      while (!list.done) {
        const [inner, innerWire] = list.tag();
        if (inner === 1 && innerWire === WireType.LengthDelimited) keyValue(list.message(), map, depth + 1);
        else list.skip(innerWire);
      }
      value = map;
    } else if (field === 7 && wire === WireType.LengthDelimited) value = base64Of(reader.bytesField());
    else reader.skip(wire);
  }
  return typeof value === 'boolean' || typeof value === 'number' ? String(value) : value;
}

function base64Of(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function arrayValue(reader: ProtobufReader, depth: number): unknown[] {
  const values: unknown[] = [];
  while (!reader.done) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === WireType.LengthDelimited) values.push(anyValue(reader.message(), depth));
    else reader.skip(wire);
  }
  return values;
}

// ---- the response -----------------------------------------------------------------------------------------------

function varintBytes(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 128) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return out;
}

const lengthDelimited = (field: number, payload: number[] | Uint8Array) => [(field << 3) | 2, ...varintBytes(payload.length), ...payload];

/** ExportMetricsServiceResponse {1: partial_success {1: rejected_data_points, 2: error_message}}; empty on full success. */
export function encodeMetricsResponse(rejected: number, message: string): Uint8Array {
  if (rejected === 0 && message === '') return new Uint8Array(0);
  const partial: number[] = [];
  if (rejected > 0) partial.push(1 << 3, ...varintBytes(rejected));
  if (message) partial.push(...lengthDelimited(2, new TextEncoder().encode(message)));
  return new Uint8Array(lengthDelimited(1, partial));
}
