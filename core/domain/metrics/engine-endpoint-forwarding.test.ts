/**
 * An engine's per-endpoint histograms go through MetricRecorder without a decode, merge and encode when an endpoint's
 * interval holds one of them alone (forwarded as it came). These tests hold the result to what that round trip writes:
 * random intervals of engine lines (histograms in encode's form, in other forms a sender could write, broken ones) and
 * request samples, against a reference that decodes, merges and encodes as the recorder did before.
 */
import { describe, expect, test } from 'bun:test';
import { seededRandom } from '../../../tests/helpers/seeded-random.ts';
import { absorbEngineEndpoint } from './engine-snapshot.ts';
import { type EncodedHistogram, LatencyHistogram } from './histogram.ts';
import { MetricRecorder } from './metric-recorder.ts';

function varints(pairs: readonly (readonly [number, number])[], padded = false): string {
  let binary = '';
  const put = (value: number) => {
    while (value >= 0x80) {
      binary += String.fromCharCode((value % 0x80) | 0x80);
      value = Math.floor(value / 0x80);
    }
    binary += padded ? String.fromCharCode(value | 0x80, 0) : String.fromCharCode(value);
  };
  for (const [delta, count] of pairs) {
    put(delta);
    put(count);
  }
  return btoa(binary);
}

function recorded(values: readonly number[]): EncodedHistogram {
  const histogram = new LatencyHistogram();
  for (const value of values) histogram.record(value);
  return histogram.encode();
}

/** Histograms an engine line may carry; `unknown` fields: a foreign engine's JSON is not typed. */
function histograms(random: ReturnType<typeof seededRandom>): unknown[] {
  const many = Array.from({ length: random.int(1, 400) }, () => 0.2 * 100 ** random.next());
  return [
    recorded(many),
    recorded([3, 3, 19.5]),
    recorded([]),
    { v: 1, buckets: varints([[5, 0], [7, 2]]), count: 2, min: 5, max: 12, sum: 20 }, // a bucket of count 0
    { v: 1, buckets: varints([[5, 1], [0, 2]]), count: 3, min: 5, max: 5, sum: 15 }, // a repeated index
    { v: 1, buckets: varints([[5, 1], [7, 2]], true), count: 3, min: 5, max: 12, sum: 29 }, // longer varints
    { v: 1, buckets: varints([[300, 2], [10, 1]]).replace(/=+$/, ''), count: 3, min: 300, max: 310, sum: 910 }, // no padding
    { v: 1, buckets: '', count: 0, min: 4, max: 7, sum: 3 }, // no samples, yet figures
    { v: 1, buckets: varints([[300, 2]]), count: 2, min: '300', max: -1, sum: 12.5 }, // odd figures
    { v: 1, buckets: varints([[300, 2]]), count: 2, min: 300, max: 300, sum: null },
    { v: 1, buckets: varints([[200_000, 1]]), count: 1, min: 1, max: 1, sum: 1 }, // past an hour
    { v: 1, buckets: varints([[300, 2]]), count: 3, min: 1, max: 1, sum: 1 }, // count does not match
    { v: 1, buckets: btoa(atob(varints([[300, 2]])) + '\x85'), count: 2, min: 1, max: 1, sum: 1 }, // truncated
    { v: 2, buckets: '', count: 0, min: 0, max: 0, sum: 0 },
    { v: 1, buckets: '*', count: 0, min: 0, max: 0, sum: 0 },
    null,
    undefined,
  ];
}

/** The recorder's endpoint bookkeeping as it was: every histogram decoded and merged into the window's, then encoded. */
class Reference {
  windows = new Map<string, { histogram: LatencyHistogram; requests: number; errors: number }>();
  private window(name: string) {
    let window = this.windows.get(name);
    if (!window) this.windows.set(name, (window = { histogram: new LatencyHistogram(), requests: 0, errors: 0 }));
    return window;
  }
  line(json: string): boolean {
    const line = JSON.parse(json) as { name: unknown; requests: number; errors: number; histogram: EncodedHistogram };
    let decoded: LatencyHistogram;
    try {
      decoded = LatencyHistogram.decode(line.histogram);
    } catch {
      return false;
    }
    if (typeof line.name !== 'string') return false;
    if (line.requests > 0 || decoded.count > 0) {
      const window = this.window(line.name);
      window.histogram.merge(decoded);
      window.requests += line.requests;
      window.errors += line.errors;
    }
    return true;
  }
  sample(name: string, latencyMs: number): void {
    const window = this.window(name);
    window.histogram.record(latencyMs);
    window.requests++;
  }
  take() {
    const endpoints = [...this.windows].map(([name, one]) => ({ name, requests: one.requests, errors: Math.min(one.errors, one.requests), histogram: one.histogram.encode() }));
    this.windows = new Map();
    return endpoints;
  }
}

describe('an engine endpoint histogram sent on as it came', () => {
  test('writes what decoding, merging and encoding wrote, whatever the interval holds (seeded)', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const random = seededRandom(seed);
      const recorder = new MetricRecorder(() => 1_000);
      const reference = new Reference();
      const names = ['GET /a', 'GET /b', 'POST /c'];
      for (let interval = 0; interval < 6; interval++) {
        for (let op = random.int(1, 8); op > 0; op--) {
          const name = random.pick(names);
          if (random.chance(0.2)) {
            const latency = random.next() * 40;
            recorder.request(latency, false, 1_000, { endpoint: name });
            reference.sample(name, latency);
            continue;
          }
          const requests = random.int(0, 3);
          const line = JSON.stringify({ name, requests, errors: random.int(0, requests), startedAt: 1_000, endedAt: 1_500, histogram: random.pick(histograms(random)) });
          expect(absorbEngineEndpoint(recorder, line)).toBe(reference.line(line));
        }
        const taken = recorder.takeInterval(2_000);
        const expected = reference.take();
        // The reference has no machine totals: an interval of endpoint lines alone takes no snapshot; its endpoints go
        // with the next one, as they do in the recorder.
        if (!taken) {
          recorder.request(1, false, 1_000);
          const next = recorder.takeInterval(2_000)!;
          expect(next.endpoints ?? []).toEqual(expected);
          continue;
        }
        expect(taken.endpoints ?? []).toEqual(expected);
      }
    }
  });

  test('a lone histogram in encode form is the one sent, not a copy rebuilt; a second one merges with it', () => {
    const recorder = new MetricRecorder(() => 1_000);
    const histogram = recorded([1, 2, 3, 250]);
    const line = (name: string, encoded: EncodedHistogram) => JSON.stringify({ name, requests: encoded.count, errors: 0, startedAt: 1_000, endedAt: 1_500, histogram: encoded });
    expect(absorbEngineEndpoint(recorder, line('a', histogram))).toBe(true);
    expect(absorbEngineEndpoint(recorder, line('b', histogram))).toBe(true);
    expect(absorbEngineEndpoint(recorder, line('b', recorded([7])))).toBe(true);
    recorder.request(1, false, 1_000);
    const [a, b] = recorder.takeInterval(2_000)!.endpoints!;
    expect(a!.histogram).toEqual(histogram);
    expect(b!.histogram).toEqual(new LatencyHistogram().merge(LatencyHistogram.decode(histogram)).merge(LatencyHistogram.decode(recorded([7]))).encode());
    expect(b!.requests).toBe(5);
  });

  test('a broken histogram records nothing, not even the name', () => {
    const recorder = new MetricRecorder(() => 1_000);
    const broken = { v: 1, buckets: varints([[300, 2]]), count: 3, min: 1, max: 1, sum: 1 };
    const line = JSON.stringify({ name: 'a', requests: 3, errors: 0, startedAt: 1_000, endedAt: 1_500, histogram: broken, failures: [{ kind: 'status', code: '500', message: 'x', count: 1 }] });
    expect(absorbEngineEndpoint(recorder, line)).toBe(false);
    recorder.request(1, false, 1_000);
    const interval = recorder.takeInterval(2_000)!;
    expect(interval.endpoints).toBeUndefined();
    expect(interval.errorGroups).toBeUndefined();
  });
});
