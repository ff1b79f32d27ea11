/**
 * The engine's latency histogram: the buckets, encoding and nearest-rank percentiles of Loadplane's LatencyHistogram
 * (core/domain/metrics/histogram.ts), restated here because the engine imports nothing outside its folder (a sandboxed
 * run can read only this folder of the plugin). A test holds the two to the same bytes.
 *
 * Counts live in typed-array chunks of 1,024 buckets, made on first use, not in a Map: recording is the engine's one
 * per-request cost that grows with the steps (histograms per endpoint name), and a Map of up to ~2,000 keys per name,
 * refilled from empty every interval, kept rehashing and missing the cache (a 50-step test spent 12% of the engine's
 * CPU in `record`, a 1-step one 4%).
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

const chunkBits = 10;
const chunkSize = 1 << chunkBits;
const chunkMask = chunkSize - 1;
/** Enough chunks for the largest index (an hour's bucket, about 23,200). */
const chunkCount = (indexOf(maxTrackableMicros) >> chunkBits) + 1;

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
  /** Bucket `i` counts in chunks[i >> chunkBits][i & chunkMask]; Float64Array: counts stay exact past 2^32. */
  private readonly chunks: (Float64Array | null)[] = new Array<Float64Array | null>(chunkCount).fill(null);
  count = 0;
  private min = Number.POSITIVE_INFINITY;
  private max = 0;
  private sum = 0;

  /** One latency in milliseconds, kept to the microsecond. */
  record(milliseconds: number): void {
    const micros = Math.min(Math.round(Math.max(0, milliseconds) * 1000), maxTrackableMicros);
    const index = indexOf(micros);
    const chunk = this.chunks[index >> chunkBits] ?? (this.chunks[index >> chunkBits] = new Float64Array(chunkSize));
    chunk[index & chunkMask]!++;
    this.count++;
    this.sum += micros;
    if (micros < this.min) this.min = micros;
    if (micros > this.max) this.max = micros;
  }

  /** Adds every sample of `other`, bucket by bucket: the same histogram as recording both's latencies into one. */
  add(other: StepHistogram): this {
    if (other.count === 0) return this;
    for (let c = 0; c < chunkCount; c++) {
      const from = other.chunks[c];
      if (!from) continue;
      const into = this.chunks[c] ?? (this.chunks[c] = new Float64Array(chunkSize));
      for (let i = 0; i < chunkSize; i++) into[i] += from[i]!;
    }
    this.count += other.count;
    this.sum += other.sum;
    if (other.min < this.min) this.min = other.min;
    if (other.max > this.max) this.max = other.max;
    return this;
  }

  /** Back to empty, keeping the chunks made so far (an interval's histogram is reused for the next interval). */
  clear(): void {
    for (const chunk of this.chunks) chunk?.fill(0);
    this.count = 0;
    this.min = Number.POSITIVE_INFINITY;
    this.max = 0;
    this.sum = 0;
  }

  /** Calls `visit` for every bucket with samples, in ascending bucket order. */
  private each(visit: (index: number, count: number) => boolean | void): void {
    for (let c = 0; c < chunkCount; c++) {
      const chunk = this.chunks[c];
      if (!chunk) continue;
      for (let i = 0; i < chunkSize; i++) {
        if (chunk[i] !== 0 && visit((c << chunkBits) | i, chunk[i]!) === true) return;
      }
    }
  }

  /** Nearest-rank percentile in milliseconds (0 when empty), read as LatencyHistogram reads it. */
  percentile(percent: number): number {
    if (this.count === 0) return 0;
    if (percent >= 100) return this.max / 1000;
    const rank = Math.max(1, Math.ceil((percent / 100) * this.count));
    let seen = 0;
    let found = -1;
    this.each((index, count) => {
      seen += count;
      if (seen < rank) return false;
      found = index;
      return true;
    });
    return found < 0 ? this.max / 1000 : Math.min(highestOf(found), this.max) / 1000;
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
    this.each((index, count) => {
      varint(index - previous);
      varint(count);
      previous = index;
    });
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return { v: 1, buckets: btoa(binary), count: this.count, min: this.count === 0 ? 0 : this.min, max: this.max, sum: this.sum };
  }
}
