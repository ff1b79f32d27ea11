/**
 * The histogram encoding shared with the Go output extension: xk6-output/testdata/histogram-vectors.json holds samples
 * and their encodings; the Go test (`go test` in xk6-output) checks Go's encoder against the same file.
 */
import { expect, test } from 'bun:test';
import { type EncodedHistogram, LatencyHistogram } from 'loadplane/plugin';
import vectors from './xk6-output/testdata/histogram-vectors.json';

interface Vector {
  name: string;
  samplesMs: (number | string)[];
  encoded: EncodedHistogram;
  p50: number;
  p99: number;
}

// NaN and Infinity are not JSON: the file writes them as strings.
const sample = (value: number | string) => (typeof value === 'number' ? value : Number(value));

test('the shared vectors cover the edges', () => {
  expect((vectors as Vector[]).length).toBeGreaterThanOrEqual(7);
  expect((vectors as Vector[]).some((v) => v.samplesMs.includes('NaN'))).toBe(true);
});

for (const vector of vectors as Vector[]) {
  test(`LatencyHistogram encodes as the vectors say: ${vector.name}`, () => {
    const histogram = new LatencyHistogram();
    for (const value of vector.samplesMs) histogram.record(sample(value));
    expect(histogram.encode()).toEqual(vector.encoded);
    const decoded = LatencyHistogram.decode(vector.encoded);
    expect(decoded.count).toBe(vector.encoded.count);
    expect(decoded.percentile(50)).toBe(vector.p50);
    expect(decoded.percentile(99)).toBe(vector.p99);
  });
}
