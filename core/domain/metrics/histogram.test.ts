import { describe, expect, test } from 'bun:test';
import { seededRandom } from '../../../tests/helpers/seeded-random.ts';
import { type EncodedHistogram, inspectEncoded, LatencyHistogram, mergedPercentile, mergedPercentiles, mergeEncodedHistograms } from './histogram.ts';

/** Exact nearest-rank percentile of raw samples. */
function exact(samples: number[], percent: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((percent / 100) * sorted.length) - 1)]!;
}

function seeded(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 2 ** 32;
    return seed / 2 ** 32;
  };
}

describe('LatencyHistogram', () => {
  test('percentiles match the exact ones within HDR precision (0.1%) across scales', () => {
    const random = seeded(7);
    const samples = Array.from({ length: 20_000 }, () => Math.round(-Math.log(random()) * 40_000) / 1000 + 0.2);
    const histogram = new LatencyHistogram();
    for (const sample of samples) histogram.record(sample);
    for (const p of [1, 50, 90, 95, 99, 99.9]) {
      const truth = exact(samples, p);
      expect(Math.abs(histogram.percentile(p) - truth)).toBeLessThanOrEqual(truth / 1024 + 0.001);
    }
    expect(histogram.count).toBe(samples.length);
    expect(histogram.max).toBeCloseTo(Math.max(...samples), 3);
    expect(histogram.min).toBeCloseTo(Math.min(...samples), 3);
  });

  test('merging per-machine histograms gives the percentiles of all samples pooled', () => {
    const random = seeded(42);
    // Two machines with very different latency profiles: averaging their p95s would be badly wrong.
    const fast = Array.from({ length: 9_000 }, () => 5 + random() * 10);
    const slow = Array.from({ length: 1_000 }, () => 200 + random() * 800);
    const a = new LatencyHistogram();
    const b = new LatencyHistogram();
    for (const s of fast) a.record(s);
    for (const s of slow) b.record(s);
    const merged = LatencyHistogram.decode(a.encode()).merge(LatencyHistogram.decode(b.encode()));
    const pooled = [...fast, ...slow];
    for (const p of [50, 95, 99]) {
      const truth = exact(pooled, p);
      expect(Math.abs(merged.percentile(p) - truth)).toBeLessThanOrEqual(truth / 1024 + 0.001);
    }
    const averaged = (a.percentile(95) + b.percentile(95)) / 2;
    expect(Math.abs(averaged - exact(pooled, 95))).toBeGreaterThan(100);
  });

  test('encode/decode round-trips; bad input is refused', () => {
    const histogram = new LatencyHistogram();
    for (const v of [0, 0.001, 1.5, 2.047, 2.049, 1000, 65_000.5, 3_600_000]) histogram.record(v, 3);
    const copy = LatencyHistogram.decode(JSON.parse(JSON.stringify(histogram.encode())));
    for (const p of [0, 10, 50, 75, 99, 100]) expect(copy.percentile(p)).toBe(histogram.percentile(p));
    expect(copy.count).toBe(24);
    expect(copy.mean).toBeCloseTo(histogram.mean, 6);
    expect(() => LatencyHistogram.decode({ v: 1, buckets: btoa('\x01'), count: 1, min: 0, max: 0, sum: 0 })).toThrow();
    expect(() => LatencyHistogram.decode({ v: 1, buckets: '', count: 5, min: 0, max: 0, sum: 0 })).toThrow(/count/);
  });

  test('empty histograms and odd values', () => {
    const empty = new LatencyHistogram();
    expect(empty.percentile(99)).toBe(0);
    expect(empty.min).toBe(0);
    empty.record(Number.NaN);
    empty.record(-1);
    expect(empty.count).toBe(0);
    const merged = new LatencyHistogram().merge(empty);
    expect(merged.count).toBe(0);
    const huge = new LatencyHistogram();
    huge.record(10 * 3_600_000);
    expect(huge.max).toBe(3_600_000);
  });
});

test('mergeEncoded adds an encoded histogram exactly as decode + merge does', () => {
  const H = LatencyHistogram;
  const a = new H();
  const b = new H();
  for (let i = 1; i <= 500; i++) a.record(i * 0.37);
  for (let i = 1; i <= 300; i++) b.record(i * 13.1);
  const viaDecode = new H().merge(H.decode(a.encode())).merge(H.decode(b.encode()));
  const viaEncoded = new H().mergeEncoded(a.encode()).mergeEncoded(b.encode());
  expect(viaEncoded.encode()).toEqual(viaDecode.encode());
  for (const p of [50, 95, 99, 99.9]) expect(viaEncoded.percentile(p)).toBe(viaDecode.percentile(p));
  expect(() => new H().mergeEncoded({ ...a.encode(), count: 1 })).toThrow('does not match');
});

test('mergedPercentile over encoded buckets answers what percentile of the merge answers', () => {
  const parts = [0.37, 13.1, 2.5, 900].map((scale, i) => {
    const h = new LatencyHistogram();
    for (let j = 1; j <= 200 + i * 50; j++) h.record(j * scale);
    return h;
  });
  const merged = new LatencyHistogram();
  for (const part of parts) merged.merge(part);
  const encoded = parts.map((part) => part.encode());
  for (const p of [1, 50, 95, 99, 99.9, 100]) {
    expect(mergedPercentile(encoded.map((e) => e.buckets), p, Math.max(...encoded.map((e) => e.max)))).toBe(merged.percentile(p));
  }
  expect(mergedPercentile([], 95, 0)).toBe(0);
});

test('mergedPercentiles answers, in the order asked, what percentile of the merge answers for each (seeded sequences)', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const random = seededRandom(seed);
    const parts = Array.from({ length: random.int(0, 6) }, () => {
      const h = new LatencyHistogram();
      const scale = random.pick([0.01, 1, 30, 2000]);
      for (let j = random.int(0, 300); j > 0; j--) h.record(random.next() * scale);
      return h;
    });
    const merged = new LatencyHistogram();
    for (const part of parts) merged.merge(part);
    const encoded = parts.map((part) => part.encode());
    const percents = Array.from({ length: random.int(1, 5) }, () => random.pick([0, 1, 50, 90, 95, 99, 99.9, 100]));
    const answers = mergedPercentiles(encoded.map((e) => e.buckets), percents, Math.max(0, ...encoded.map((e) => e.max)));
    expect(answers).toEqual(percents.map((p) => merged.percentile(p)));
  }
});

test('a truncated histogram throws and leaves nothing behind for the next merge', () => {
  const h = new LatencyHistogram();
  for (let j = 1; j <= 100; j++) h.record(j);
  const good = h.encode().buckets;
  const truncated = btoa(atob(good).slice(0, -1) + String.fromCharCode(0x85));
  expect(() => mergedPercentiles([good, truncated], [50], h.encode().max)).toThrow('truncated histogram');
  expect(mergedPercentiles([good], [50, 99], h.encode().max)).toEqual([h.percentile(50), h.percentile(99)]);
});

/** Raw varint pairs (index delta, count) as base64; `padded` writes each varint one byte longer than it needs. */
function rawBuckets(pairs: readonly (readonly [number, number])[], padded = false): string {
  let binary = '';
  const varint = (value: number) => {
    const bytes: number[] = [];
    while (value >= 0x80) {
      bytes.push((value % 0x80) | 0x80);
      value = Math.floor(value / 0x80);
    }
    if (padded) bytes.push(value | 0x80, 0);
    else bytes.push(value);
    for (const byte of bytes) binary += String.fromCharCode(byte);
  };
  for (const [delta, count] of pairs) {
    varint(delta);
    varint(count);
  }
  return btoa(binary);
}

/** Encoded histograms of every form a sender could write, sound or not: what the fast paths must treat as decode does. */
function oddHistograms(): EncodedHistogram[] {
  const recorded = (values: number[]) => {
    const h = new LatencyHistogram();
    for (const value of values) h.record(value);
    return h.encode();
  };
  const raw = (pairs: [number, number][], extra: Partial<EncodedHistogram> = {}, padded = false): EncodedHistogram => ({
    v: 1,
    buckets: rawBuckets(pairs, padded),
    count: pairs.reduce((sum, [, count]) => sum + count, 0),
    min: 5,
    max: 900,
    sum: 1234,
    ...extra,
  });
  return [
    recorded([]),
    recorded([0.2, 0.2, 3, 19.5, 19.5, 19.5]),
    recorded([0, 0.001, 2.047, 2.048, 2.049, 60_000, 3_600_000, 7_200_000]),
    raw([[0, 3]]),
    raw([[5, 1], [0, 2], [3, 4]]), // a repeated index
    raw([[5, 0], [7, 2]]), // a bucket of count 0
    raw([[5, 1], [7, 2]], {}, true), // longer varints than needed
    raw([[200_000, 1]]), // a bucket past an hour
    raw([], { count: 0, min: 0, max: 7, sum: 0 }), // no samples, yet a maximum
    raw([[300, 2]], { sum: 12.345, min: 300, max: 301 }),
    { ...raw([[300, 2], [10, 1]]), buckets: rawBuckets([[300, 2], [10, 1]]).replace(/=+$/, '') }, // base64 without padding
    { ...raw([[300, 2]]), count: 3 }, // count does not match
    { ...raw([[300, 2]]), buckets: btoa(atob(rawBuckets([[300, 2]])) + String.fromCharCode(0x85)) }, // truncated
    { ...raw([[300, 2]]), buckets: '*not base64*' },
    { ...raw([[300, 2]]), v: 2 } as unknown as EncodedHistogram,
  ];
}

const outcome = (work: () => unknown): unknown => {
  try {
    return { value: work() };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
};

test('mergeEncodedHistograms writes exactly what mergeEncoded then encode write, and throws what they throw', () => {
  const odd = oddHistograms();
  const random = seededRandom(22);
  const cases: EncodedHistogram[][] = [[], ...odd.map((one) => [one]), ...odd.map((one) => [odd[1]!, one, odd[2]!])];
  for (let i = 0; i < 200; i++) cases.push(Array.from({ length: random.int(1, 4) }, () => random.pick(odd)));
  for (let i = 0; i < 40; i++) {
    cases.push(
      Array.from({ length: random.int(1, 3) }, () => {
        const h = new LatencyHistogram();
        for (let j = random.int(0, 3000); j > 0; j--) h.record(0.2 * 100 ** random.next());
        return h.encode();
      }),
    );
  }
  for (const parts of cases) {
    const expected = outcome(() => parts.reduce((h, part) => h.mergeEncoded(part), new LatencyHistogram()).encode());
    expect(outcome(() => mergeEncodedHistograms(parts))).toEqual(expected);
    if (parts.length === 0) continue;
    const [first, ...rest] = parts;
    const decodedFirst = outcome(() => rest.reduce((h, part) => h.mergeEncoded(part), LatencyHistogram.decode(first!)).encode());
    expect(outcome(() => mergeEncodedHistograms(parts, { firstDecoded: true }))).toEqual(decodedFirst);
  }
  // Nothing of a merge that threw is left behind for the next one.
  expect(mergeEncodedHistograms([odd[1]!])).toEqual(new LatencyHistogram().mergeEncoded(odd[1]!).encode());
});

test('inspectEncoded refuses what decode refuses, with its message, and knows the form encode writes', () => {
  for (const encoded of oddHistograms()) {
    const decoded = outcome(() => LatencyHistogram.decode(encoded));
    const inspected = outcome(() => inspectEncoded(encoded, { canonical: true }));
    if ('error' in (decoded as object)) {
      expect(inspected).toEqual(decoded);
      continue;
    }
    const { total, canonical } = (inspected as { value: { total: number; canonical: boolean } }).value;
    expect(total).toBe(encoded.count);
    // Canonical: decoding and encoding again writes the same buckets.
    expect(canonical).toBe(LatencyHistogram.decode(encoded).encode().buckets === encoded.buckets);
    expect(inspectEncoded(encoded).canonical).toBe(false);
  }
});

/** The samples of raw varint pairs, null when they are cut short (a reference reader for the test below). */
function samplesOf(binary: string): number | null {
  const values: number[] = [];
  let value = 0;
  let scale = 1;
  for (let i = 0; i < binary.length; i++) {
    const byte = binary.charCodeAt(i);
    value += (byte & 0x7f) * scale;
    scale *= 0x80;
    if (byte < 0x80) {
      values.push(value);
      value = 0;
      scale = 1;
    } else if (i === binary.length - 1) return null;
  }
  if (values.length % 2 === 1) return null;
  return values.filter((_, i) => i % 2 === 1).reduce((sum, one) => sum + one, 0);
}

test('on random bytes, inspectEncoded and mergeEncodedHistograms agree with decode and mergeEncoded (seeded)', () => {
  const random = seededRandom(2222);
  for (let i = 0; i < 3000; i++) {
    let binary = '';
    for (let n = random.int(0, 12); n > 0; n--) binary += String.fromCharCode(random.chance(0.3) ? random.int(0x80, 0xff) : random.int(0, 0x7f));
    // Its count: usually what its buckets hold (when they are whole), else anything.
    const total = samplesOf(binary);
    const count = total !== null && random.chance(0.8) ? total : random.int(0, 300);
    const encoded: EncodedHistogram = { v: 1, buckets: btoa(binary), count, min: random.int(0, 5), max: random.int(0, 9), sum: random.int(0, 99) };
    const decoded = outcome(() => LatencyHistogram.decode(encoded));
    const inspected = outcome(() => inspectEncoded(encoded, { canonical: true }));
    if ('error' in (decoded as object)) expect(inspected).toEqual(decoded);
    else expect((inspected as { value: { canonical: boolean } }).value.canonical).toBe(LatencyHistogram.decode(encoded).encode().buckets === encoded.buckets);
    const other = new LatencyHistogram();
    other.record(random.next() * 30);
    const parts = random.chance(0.5) ? [encoded] : [other.encode(), encoded];
    expect(outcome(() => mergeEncodedHistograms(parts))).toEqual(outcome(() => parts.reduce((h, part) => h.mergeEncoded(part), new LatencyHistogram()).encode()));
    expect(outcome(() => mergeEncodedHistograms(parts, { firstDecoded: true }))).toEqual(
      outcome(() => parts.slice(1).reduce((h, part) => h.mergeEncoded(part), LatencyHistogram.decode(parts[0]!)).encode()),
    );
  }
});
