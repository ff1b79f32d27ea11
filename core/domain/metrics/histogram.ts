/**
 * A latency histogram in the manner of HdrHistogram: log-linear buckets with about three significant digits
 * (relative error ≤ 1/1024), so histograms from many machines merge exactly and percentiles are read from the merge.
 * Values are recorded in microseconds; the API speaks milliseconds.
 */

const subBucketBits = 11; // 2048 linear sub-buckets: exact below 2.048 ms, then 1024 per power of two
const subBucketCount = 1 << subBucketBits;
const halfCount = subBucketCount >> 1;
/** One hour in microseconds: longer samples are clamped (and counted) rather than growing the histogram without end. */
export const maxTrackableMicros = 3_600_000_000;

function indexOf(micros: number): number {
  if (micros < subBucketCount) return micros;
  const exponent = Math.floor(Math.log2(micros)) - (subBucketBits - 1);
  const mantissa = Math.floor(micros / 2 ** exponent); // in [1024, 2047]
  return subBucketCount + (exponent - 1) * halfCount + (mantissa - halfCount);
}

/** The largest value that lands in bucket `index` (HdrHistogram's highest equivalent value). */
function highestOf(index: number): number {
  if (index < subBucketCount) return index;
  const exponent = Math.floor((index - subBucketCount) / halfCount) + 1;
  const mantissa = ((index - subBucketCount) % halfCount) + halfCount;
  return (mantissa + 1) * 2 ** exponent - 1;
}

export interface EncodedHistogram {
  /** Format version. */
  v: 1;
  /** Base64 of varint pairs: index delta, count. */
  buckets: string;
  count: number;
  /** Microseconds. */
  min: number;
  max: number;
  sum: number;
}

export class LatencyHistogram {
  private readonly counts = new Map<number, number>();
  count = 0;
  private minMicros = Number.POSITIVE_INFINITY;
  private maxMicros = 0;
  private sumMicros = 0;

  /** Records one latency in milliseconds (fractions kept to the microsecond). */
  record(milliseconds: number, times = 1): void {
    if (!Number.isFinite(milliseconds) || milliseconds < 0 || times <= 0) return;
    const micros = Math.min(Math.round(milliseconds * 1000), maxTrackableMicros);
    const index = indexOf(micros);
    this.counts.set(index, (this.counts.get(index) ?? 0) + times);
    this.count += times;
    this.sumMicros += micros * times;
    if (micros < this.minMicros) this.minMicros = micros;
    if (micros > this.maxMicros) this.maxMicros = micros;
  }

  /** Adds every sample of `other` (merging machines or intervals). */
  merge(other: LatencyHistogram): this {
    for (const [index, count] of other.counts) this.counts.set(index, (this.counts.get(index) ?? 0) + count);
    this.count += other.count;
    this.sumMicros += other.sumMicros;
    if (other.count > 0) {
      this.minMicros = Math.min(this.minMicros, other.minMicros);
      this.maxMicros = Math.max(this.maxMicros, other.maxMicros);
    }
    return this;
  }

  /** Nearest-rank percentile in milliseconds (0 for an empty histogram). */
  percentile(percent: number): number {
    if (this.count === 0) return 0;
    if (percent >= 100) return this.maxMicros / 1000;
    const rank = Math.max(1, Math.ceil((percent / 100) * this.count));
    let seen = 0;
    for (const index of [...this.counts.keys()].sort((a, b) => a - b)) {
      seen += this.counts.get(index)!;
      if (seen >= rank) return Math.min(highestOf(index), this.maxMicros) / 1000;
    }
    return this.maxMicros / 1000;
  }

  get min(): number {
    return this.count === 0 ? 0 : this.minMicros / 1000;
  }

  get max(): number {
    return this.maxMicros / 1000;
  }

  get mean(): number {
    return this.count === 0 ? 0 : this.sumMicros / this.count / 1000;
  }

  encode(): EncodedHistogram {
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
    return {
      v: 1,
      buckets: btoa(binary),
      count: this.count,
      min: this.count === 0 ? 0 : this.minMicros,
      max: this.maxMicros,
      sum: this.sumMicros,
    };
  }

  /**
   * Adds an encoded histogram's samples straight into this one (no intermediate histogram): how queries merge thousands
   * of stored intervals. Same result as `merge(LatencyHistogram.decode(encoded))`.
   */
  mergeEncoded(encoded: EncodedHistogram): this {
    if (!encoded || encoded.v !== 1 || typeof encoded.buckets !== 'string') throw new Error('not an encoded histogram (v1)');
    const binary = atob(encoded.buckets);
    let offset = 0;
    let index = 0;
    let total = 0;
    while (offset < binary.length) {
      for (let field = 0; field < 2; field++) {
        let value = 0;
        let scale = 1;
        for (;;) {
          if (offset >= binary.length) throw new Error('truncated histogram');
          const byte = binary.charCodeAt(offset++);
          value += (byte & 0x7f) * scale;
          if (byte < 0x80) break;
          scale *= 0x80;
        }
        if (field === 0) index += value;
        else {
          this.counts.set(index, (this.counts.get(index) ?? 0) + value);
          total += value;
        }
      }
    }
    if (total !== encoded.count) throw new Error('histogram count does not match its buckets');
    this.count += total;
    this.sumMicros += encoded.sum;
    if (total > 0) {
      this.minMicros = Math.min(this.minMicros, encoded.min);
      this.maxMicros = Math.max(this.maxMicros, encoded.max);
    }
    return this;
  }

  static decode(encoded: EncodedHistogram): LatencyHistogram {
    if (!encoded || encoded.v !== 1 || typeof encoded.buckets !== 'string') throw new Error('not an encoded histogram (v1)');
    const histogram = new LatencyHistogram();
    const binary = atob(encoded.buckets);
    let offset = 0;
    const varint = () => {
      let value = 0;
      let scale = 1;
      for (;;) {
        if (offset >= binary.length) throw new Error('truncated histogram');
        const byte = binary.charCodeAt(offset++);
        value += (byte & 0x7f) * scale;
        if (byte < 0x80) return value;
        scale *= 0x80;
      }
    };
    let index = 0;
    let total = 0;
    while (offset < binary.length) {
      index += varint();
      const count = varint();
      histogram.counts.set(index, count);
      total += count;
    }
    if (total !== encoded.count) throw new Error('histogram count does not match its buckets');
    histogram.count = total;
    histogram.minMicros = total === 0 ? Number.POSITIVE_INFINITY : encoded.min;
    histogram.maxMicros = encoded.max;
    histogram.sumMicros = encoded.sum;
    return histogram;
  }
}

/** Counts by bucket index for `mergedPercentiles`, reused between calls (zeroed where touched). */
let scratch = new Float64Array(0);

/**
 * The percentile (ms) of the merge of many encoded histograms, given their buckets (`EncodedHistogram.buckets`) and the
 * largest sample (µs): what `percentile` of their merge answers, without building it.
 */
export function mergedPercentile(buckets: readonly string[], percent: number, maxMicros: number): number {
  return mergedPercentiles(buckets, [percent], maxMicros)[0]!;
}

/**
 * Several percentiles (ms) of one merge, in the order asked: the buckets are decoded once whatever the number of
 * percentiles (p50, p95 and p99 of a chart's bucket cost one decode, not three). Counts go into one dense array, which
 * is several times faster than a Map when a query merges thousands of stored intervals.
 */
export function mergedPercentiles(buckets: readonly string[], percents: readonly number[], maxMicros: number): number[] {
  const size = indexOf(maxTrackableMicros) + 1;
  if (scratch.length < size) scratch = new Float64Array(size);
  let total = 0;
  let low = size;
  let high = -1;
  for (const encoded of buckets) {
    const binary = atob(encoded);
    let offset = 0;
    let index = 0;
    while (offset < binary.length) {
      let delta = 0;
      let scale = 1;
      for (;;) {
        const byte = binary.charCodeAt(offset++);
        delta += (byte & 0x7f) * scale;
        if (byte < 0x80 || offset >= binary.length) break;
        scale *= 0x80;
      }
      let count = 0;
      scale = 1;
      for (;;) {
        if (offset >= binary.length) {
          if (high >= low) scratch.fill(0, low, high + 1);
          throw new Error('truncated histogram');
        }
        const byte = binary.charCodeAt(offset++);
        count += (byte & 0x7f) * scale;
        if (byte < 0x80) break;
        scale *= 0x80;
      }
      index += delta;
      if (index >= size) {
        if (high >= low) scratch.fill(0, low, high + 1);
        throw new Error('histogram bucket out of range');
      }
      scratch[index]! += count;
      total += count;
      if (index < low) low = index;
      if (index > high) high = index;
    }
  }
  // Ascending ranks in one pass over the counts; answers go back in the order asked.
  const order = percents.map((percent, position) => ({ percent, position })).sort((a, b) => a.percent - b.percent);
  const answers = new Array<number>(percents.length).fill(0);
  if (total > 0) {
    let index = low;
    let seen = scratch[low]!;
    for (const { percent, position } of order) {
      if (percent >= 100) {
        answers[position] = maxMicros / 1000;
        continue;
      }
      const rank = Math.max(1, Math.ceil((percent / 100) * total));
      while (seen < rank && index < high) seen += scratch[++index]!;
      answers[position] = seen >= rank ? Math.min(highestOf(index), maxMicros) / 1000 : maxMicros / 1000;
    }
  }
  if (high >= low) scratch.fill(0, low, high + 1);
  return answers;
}
