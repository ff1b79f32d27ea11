/**
 * The engine's latency histogram: the buckets, encoding and nearest-rank percentiles of Loadplane's LatencyHistogram
 * (core/domain/metrics/histogram.ts), restated here because the engine imports nothing outside its folder (a sandboxed
 * run can read only this folder of the plugin). A test holds the two to the same bytes.
 */

const subBucketBits = 11;
const subBucketCount = 1 << subBucketBits;
const halfCount = subBucketCount >> 1;
/** One hour: longer answers are clamped, as LatencyHistogram does. */
const maxTrackableMicros = 3_600_000_000;

function indexOf(micros: number): number {
  if (micros < subBucketCount) return micros;
  const exponent = Math.floor(Math.log2(micros)) - (subBucketBits - 1);
  const mantissa = Math.floor(micros / 2 ** exponent);
  return subBucketCount + (exponent - 1) * halfCount + (mantissa - halfCount);
}

function highestOf(index: number): number {
  if (index < subBucketCount) return index;
  const exponent = Math.floor((index - subBucketCount) / halfCount) + 1;
  const mantissa = ((index - subBucketCount) % halfCount) + halfCount;
  return (mantissa + 1) * 2 ** exponent - 1;
}

/** LatencyHistogram's wire form (EncodedHistogram, version 1). */
export interface WireHistogram {
  v: 1;
  buckets: string;
  count: number;
  min: number;
  max: number;
  sum: number;
}

export class StepHistogram {
  private readonly counts = new Map<number, number>();
  count = 0;
  private min = Number.POSITIVE_INFINITY;
  private max = 0;
  private sum = 0;

  /** One latency in milliseconds, kept to the microsecond. */
  record(milliseconds: number): void {
    const micros = Math.min(Math.round(Math.max(0, milliseconds) * 1000), maxTrackableMicros);
    const index = indexOf(micros);
    this.counts.set(index, (this.counts.get(index) ?? 0) + 1);
    this.count++;
    this.sum += micros;
    if (micros < this.min) this.min = micros;
    if (micros > this.max) this.max = micros;
  }

  /** Nearest-rank percentile in milliseconds (0 when empty), read as LatencyHistogram reads it. */
  percentile(percent: number): number {
    if (this.count === 0) return 0;
    if (percent >= 100) return this.max / 1000;
    const rank = Math.max(1, Math.ceil((percent / 100) * this.count));
    let seen = 0;
    for (const index of [...this.counts.keys()].sort((a, b) => a - b)) {
      seen += this.counts.get(index)!;
      if (seen >= rank) return Math.min(highestOf(index), this.max) / 1000;
    }
    return this.max / 1000;
  }

  encode(): WireHistogram {
    const bytes: number[] = [];
    const varint = (value: number) => {
      while (value >= 0x80) {
        bytes.push((value % 0x80) | 0x80);
        value = Math.floor(value / 0x80);
      }
      bytes.push(value);
    };
    let previous = 0;
    for (const index of [...this.counts.keys()].sort((a, b) => a - b)) {
      varint(index - previous);
      varint(this.counts.get(index)!);
      previous = index;
    }
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return { v: 1, buckets: btoa(binary), count: this.count, min: this.count === 0 ? 0 : this.min, max: this.max, sum: this.sum };
  }
}
