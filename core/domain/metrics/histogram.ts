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

/** Bucket indexes a dense array holds: every value up to maxTrackableMicros (about 23,200). */
const denseSize = indexOf(maxTrackableMicros) + 1;

/** What `inspectEncoded` found in a sound encoded histogram. */
export interface EncodedShape {
  /** The samples its buckets hold (equal to its `count`). */
  total: number;
  /**
   * Its buckets are exactly what `encode` writes for the buckets they hold (ascending distinct indexes, shortest
   * varints, standard base64): decoding and encoding them again gives the same string. Only asked with `canonical`.
   */
  canonical: boolean;
}

/**
 * Checks an encoded histogram as `LatencyHistogram.decode` does, throwing the same errors in the same cases, without
 * building it (no Map of buckets): for checks of histograms that are then stored or forwarded as they are (an agent's
 * snapshot, 51 histograms a second for a test of 50 steps). With `canonical`, also says whether its buckets are in the
 * form `encode` writes.
 */
export function inspectEncoded(encoded: EncodedHistogram, options: { canonical?: boolean } = {}): EncodedShape {
  if (!encoded || encoded.v !== 1 || typeof encoded.buckets !== 'string') throw new Error('not an encoded histogram (v1)');
  const binary = atob(encoded.buckets);
  const end = binary.length;
  let offset = 0;
  let total = 0;
  let index = 0;
  // Canonical: each index above the one before (the first may be 0), each varint at most 7 bytes (exact as a number,
  // so encode writes it back alike) without a redundant last byte, the index exact as a number. The two varints of a
  // pair are read one after the other, as mergeEncodedHistograms reads them.
  let canonical = options.canonical === true;
  while (offset < end) {
    const from = offset;
    let byte = binary.charCodeAt(offset++);
    let delta = byte & 0x7f;
    let scale = 0x80;
    while (byte >= 0x80) {
      if (offset >= end) throw new Error('truncated histogram');
      byte = binary.charCodeAt(offset++);
      delta += (byte & 0x7f) * scale;
      scale *= 0x80;
    }
    if (offset - from > 1 && (byte === 0 || offset - from > 7)) canonical = false;
    if (offset >= end) throw new Error('truncated histogram');
    const countFrom = offset;
    byte = binary.charCodeAt(offset++);
    let value = byte & 0x7f;
    scale = 0x80;
    while (byte >= 0x80) {
      if (offset >= end) throw new Error('truncated histogram');
      byte = binary.charCodeAt(offset++);
      value += (byte & 0x7f) * scale;
      scale *= 0x80;
    }
    if (offset - countFrom > 1 && (byte === 0 || offset - countFrom > 7)) canonical = false;
    if (from > 0 && delta === 0) canonical = false;
    index += delta;
    if (index > 2 ** 52) canonical = false;
    total += value;
  }
  if (total !== encoded.count) throw new Error('histogram count does not match its buckets');
  if (canonical && btoa(binary) !== encoded.buckets) canonical = false;
  return { total, canonical };
}

/** `mergeEncodedHistograms`' counts and which buckets were named (a bucket of count 0 is kept, as the Map keeps it). */
let mergeCounts = new Float64Array(0);
let mergeNamed = new Uint8Array(0);
/** Bytes of the varints `mergeEncodedHistograms` writes, reused between calls. */
let mergeBytes = new Uint8Array(0);

/**
 * The encoded merge of encoded histograms, in order: exactly `parts.reduce((h, part) => h.mergeEncoded(part), new
 * LatencyHistogram()).encode()` (the same string, figures and errors), without a Map or a sort. With `firstDecoded`,
 * exactly `parts.slice(1).reduce((h, part) => h.mergeEncoded(part), LatencyHistogram.decode(parts[0])).encode()` (decode
 * sets a repeated bucket where merging adds it, and keeps the maximum of a histogram without samples). Counts go into
 * one dense array and are written from it in index order; a histogram with a bucket past an hour (no agent writes one)
 * takes the Map's way. What the server does with an endpoint's histograms each second: the interval's merged into the
 * stored minute's (50 times a second for a test of 50 steps), where the Map and its sort cost several times more.
 */
export function mergeEncodedHistograms(parts: readonly EncodedHistogram[], options: { firstDecoded?: boolean } = {}): EncodedHistogram {
  const firstDecoded = options.firstDecoded === true && parts.length > 0;
  if (mergeCounts.length < denseSize) {
    mergeCounts = new Float64Array(denseSize);
    mergeNamed = new Uint8Array(denseSize);
  }
  // Locals, not the module's bindings, in the loops (each read of a module's `let` is checked, and it shows).
  const counts = mergeCounts;
  const named = mergeNamed;
  let low = denseSize;
  let high = -1;
  let count = 0;
  let minMicros = Number.POSITIVE_INFINITY;
  let maxMicros = 0;
  let sumMicros = 0;
  for (let part = 0; part < parts.length; part++) {
    const encoded = parts[part]!;
    const decoded = part === 0 && firstDecoded;
    if (!encoded || encoded.v !== 1 || typeof encoded.buckets !== 'string') {
      clearMerge(low, high);
      throw new Error('not an encoded histogram (v1)');
    }
    let binary: string;
    try {
      binary = atob(encoded.buckets);
    } catch (error) {
      clearMerge(low, high);
      throw error;
    }
    // Each pair's two varints read one after the other, a byte's first seven bits without a multiplication: the same
    // values and the same `truncated histogram` as mergeEncoded's loop over fields, in well under half its time.
    const end = binary.length;
    let offset = 0;
    let index = 0;
    let total = 0;
    while (offset < end) {
      let byte = binary.charCodeAt(offset++);
      let delta = byte & 0x7f;
      let scale = 0x80;
      while (byte >= 0x80) {
        if (offset >= end) return truncated(low, high);
        byte = binary.charCodeAt(offset++);
        delta += (byte & 0x7f) * scale;
        scale *= 0x80;
      }
      if (offset >= end) return truncated(low, high);
      byte = binary.charCodeAt(offset++);
      let value = byte & 0x7f;
      scale = 0x80;
      while (byte >= 0x80) {
        if (offset >= end) return truncated(low, high);
        byte = binary.charCodeAt(offset++);
        value += (byte & 0x7f) * scale;
        scale *= 0x80;
      }
      index += delta;
      if (index >= denseSize) {
        clearMerge(low, high);
        const [first, ...rest] = parts;
        const start = firstDecoded ? LatencyHistogram.decode(first!) : new LatencyHistogram().mergeEncoded(first!);
        return rest.reduce((histogram, one) => histogram.mergeEncoded(one), start).encode();
      }
      if (decoded) counts[index] = value;
      else counts[index]! += value;
      named[index] = 1;
      if (index < low) low = index;
      if (index > high) high = index;
      total += value;
    }
    if (total !== encoded.count) {
      clearMerge(low, high);
      throw new Error('histogram count does not match its buckets');
    }
    if (decoded) {
      count = total;
      sumMicros = encoded.sum;
      minMicros = total === 0 ? Number.POSITIVE_INFINITY : encoded.min;
      maxMicros = encoded.max;
      continue;
    }
    count += total;
    sumMicros += encoded.sum;
    if (total > 0) {
      minMicros = Math.min(minMicros, encoded.min);
      maxMicros = Math.max(maxMicros, encoded.max);
    }
  }
  // Varints as encode writes them (the same arithmetic; one byte, the usual case, written at once), into bytes reused
  // between calls.
  let bytes = mergeBytes;
  let length = 0;
  let previous = 0;
  for (let index = low; index <= high; index++) {
    if (named[index] === 0) continue;
    if (length + 20 > bytes.length) {
      const grown = new Uint8Array(Math.max(4096, bytes.length * 2));
      grown.set(bytes.subarray(0, length));
      mergeBytes = bytes = grown;
    }
    const delta = index - previous;
    const value = counts[index]!;
    if (delta < 0x80) bytes[length++] = delta;
    else length = putVarint(bytes, length, delta);
    if (value < 0x80) bytes[length++] = value;
    else length = putVarint(bytes, length, value);
    previous = index;
  }
  clearMerge(low, high);
  return { v: 1, buckets: base64Of(bytes, length), count, min: count === 0 ? 0 : minMicros, max: maxMicros, sum: sumMicros };
}

/** A merge's `truncated histogram`, after zeroing what it touched. */
function truncated(low: number, high: number): never {
  clearMerge(low, high);
  throw new Error('truncated histogram');
}

/** Zeroes what a merge touched (a function apart: a closure over `low` and `high` slowed the merge's loop by a third). */
function clearMerge(low: number, high: number): void {
  if (high >= low) {
    mergeCounts.fill(0, low, high + 1);
    mergeNamed.fill(0, low, high + 1);
  }
}

/** Writes `value` as encode does at `bytes[at]` (room for it checked by the caller); answers where it ended. */
function putVarint(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value % 0x80) | 0x80;
    value = Math.floor(value / 0x80);
  }
  bytes[at++] = value;
  return at;
}

/** `Uint8Array.prototype.toBase64` where the runtime has it (Bun; TC39's base64 proposal), else undefined. */
const toBase64 = (Uint8Array.prototype as { toBase64?: (this: Uint8Array) => string }).toBase64;

/**
 * Standard base64 of `bytes[0, length)`: the same string as `btoa` of their characters (base64 of given bytes, padded,
 * is one string). `toBase64` where the runtime has it (about 15 times faster for a minute's histogram, ~20 kB), else
 * btoa of the characters built a chunk at a time, not a byte at a time.
 */
function base64Of(bytes: Uint8Array, length: number): string {
  if (toBase64) return toBase64.call(bytes.subarray(0, length));
  let binary = '';
  for (let start = 0; start < length; start += 0x2000) {
    binary += String.fromCharCode.apply(null, bytes.subarray(start, Math.min(length, start + 0x2000)) as unknown as number[]);
  }
  return btoa(binary);
}

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
