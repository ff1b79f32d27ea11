import { describe, expect, test } from 'bun:test';
import { seededRandom } from '../../../tests/helpers/seeded-random.ts';
import { LatencyHistogram, mergedPercentile, mergedPercentiles } from './histogram.ts';

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
