/** OTLP metrics export bodies for the ingest benchmark: gauges of many series at one time, as protobuf or OTLP JSON. */

class Writer {
  private buffer: Uint8Array;
  private view: DataView;
  pos = 0;

  // Small by default: every nested message gets a writer of its own (a 1,000-point export has thousands).
  constructor(size = 256) {
    this.buffer = new Uint8Array(size);
    this.view = new DataView(this.buffer.buffer);
  }

  private ensure(extra: number) {
    if (this.pos + extra <= this.buffer.length) return;
    const bigger = new Uint8Array(Math.max(this.buffer.length * 2, this.pos + extra));
    bigger.set(this.buffer);
    this.buffer = bigger;
    this.view = new DataView(bigger.buffer);
  }

  varint(value: number) {
    this.ensure(10);
    let rest = value;
    while (rest >= 0x80) {
      this.buffer[this.pos++] = (rest % 128) | 0x80;
      rest = Math.floor(rest / 128);
    }
    this.buffer[this.pos++] = rest;
  }

  tag(field: number, wire: number) {
    this.varint(field * 8 + wire);
  }

  fixed64(value: bigint) {
    this.ensure(8);
    this.view.setBigUint64(this.pos, value, true);
    this.pos += 8;
  }

  double(value: number) {
    this.ensure(8);
    this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
  }

  bytes(value: Uint8Array) {
    this.varint(value.length);
    this.ensure(value.length);
    this.buffer.set(value, this.pos);
    this.pos += value.length;
  }

  /** A length-delimited field whose content `write` produces. */
  nested(field: number, write: (w: Writer) => void) {
    const inner = new Writer();
    write(inner);
    this.tag(field, 2);
    this.bytes(inner.finish());
  }

  finish() {
    return this.buffer.slice(0, this.pos);
  }
}

const utf8 = new TextEncoder();
const keyValue = (w: Writer, field: number, key: string, value: string) =>
  w.nested(field, (kv) => {
    kv.tag(1, 2);
    kv.bytes(utf8.encode(key));
    kv.nested(2, (any) => {
      any.tag(1, 2);
      any.bytes(utf8.encode(value));
    });
  });

export interface BenchExport {
  resource: Record<string, string>;
  /** Metric names; each gets one point per label set. */
  metrics: string[];
  labelSets: Record<string, string>[];
  timeNs: bigint;
  value: (metric: number, set: number) => number;
}

export const pointsOf = (e: BenchExport) => e.metrics.length * e.labelSets.length;

export function protobufExport(e: BenchExport): Uint8Array {
  const w = new Writer(64 * 1024);
  w.nested(1, (rm) => {
    rm.nested(1, (resource) => {
      for (const [key, value] of Object.entries(e.resource)) keyValue(resource, 1, key, value);
    });
    rm.nested(2, (sm) => {
      e.metrics.forEach((name, m) =>
        sm.nested(2, (metric) => {
          metric.tag(1, 2);
          metric.bytes(utf8.encode(name));
          metric.nested(5, (gauge) => {
            e.labelSets.forEach((labels, s) =>
              gauge.nested(1, (point) => {
                point.tag(3, 1);
                point.fixed64(e.timeNs);
                point.tag(4, 1);
                point.double(e.value(m, s));
                for (const [key, value] of Object.entries(labels)) keyValue(point, 7, key, value);
              }),
            );
          });
        }),
      );
    });
  });
  return w.finish();
}

const attributes = (map: Record<string, string>) => Object.entries(map).map(([key, value]) => ({ key, value: { stringValue: value } }));

export function jsonExport(e: BenchExport): string {
  return JSON.stringify({
    resourceMetrics: [
      {
        resource: { attributes: attributes(e.resource) },
        scopeMetrics: [
          {
            metrics: e.metrics.map((name, m) => ({
              name,
              gauge: { dataPoints: e.labelSets.map((labels, s) => ({ timeUnixNano: String(e.timeNs), asDouble: e.value(m, s), attributes: attributes(labels) })) },
            })),
          },
        ],
      },
    ],
  });
}
