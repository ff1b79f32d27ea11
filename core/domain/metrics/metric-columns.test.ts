/** Aligned columns: shared times, a null where a series has no point, a null time across a quiet stretch. */
import { expect, test } from 'bun:test';
import { seededRandom } from '../../../tests/helpers/seeded-random.ts';
import { metricColumnsOf } from './metric-columns.ts';

test('series become aligned columns; a quiet stretch breaks the line', () => {
  const columns = metricColumnsOf(
    [
      { labels: { run: 'r1' }, points: [[10, 1], [20, 2], [60, 3]] },
      { labels: { run: 'r2' }, points: [[20, 5]] },
    ],
    10,
  );
  expect(columns).toEqual({
    times: [10, 20, 30, 60],
    series: [
      { labels: { run: 'r1' }, values: [1, 2, null, 3] },
      { labels: { run: 'r2' }, values: [null, 5, null, null] },
    ],
  });
  expect(metricColumnsOf([], 10)).toEqual({ times: [], series: [] });
  expect(metricColumnsOf([{ labels: {}, points: [] }], 10)).toEqual({ times: [], series: [{ labels: {}, values: [] }] });
});

/** The columns as a set of every time and a map per series would build them: the reference the one-pass merge must equal. */
function referenceColumns(step: number, series: [number, number][][]) {
  const present = [...new Set(series.flatMap((points) => points.map((p) => p[0])))].sort((a, b) => a - b);
  const times: number[] = [];
  for (const t of present) {
    const previous = times[times.length - 1];
    if (previous !== undefined && t - previous > step * 1.5) times.push(previous + step);
    times.push(t);
  }
  const index = new Map(times.map((t, i) => [t, i]));
  const values = series.map((points) => {
    const column: (number | null)[] = times.map(() => null);
    for (const [t, value] of points) column[index.get(t)!] = Number.isFinite(value) ? value : null;
    return column;
  });
  return { times, values };
}

test('the one-pass merge equals the reference on seeded random series (gaps, unsorted series, non-finite values)', () => {
  for (let seed = 1; seed <= 200; seed++) {
    const random = seededRandom(seed);
    const step = random.int(1, 10);
    const series = Array.from({ length: random.int(0, 4) }, () => {
      const points: [number, number][] = [];
      let t = random.int(0, 4) * step;
      for (let n = random.int(0, 29); n > 0; n--) {
        t += step * (random.chance(0.8) ? 1 : random.int(2, 5));
        points.push([t, random.chance(0.05) ? Number.NaN : random.int(0, 1000)]);
      }
      if (random.chance(0.2)) points.reverse();
      return points;
    });
    const answer = metricColumnsOf(series.map((points) => ({ labels: {}, points })), step);
    const reference = referenceColumns(step, series);
    expect(answer.times, `seed ${seed}`).toEqual(reference.times);
    expect(answer.series.map((one) => one.values), `seed ${seed}`).toEqual(reference.values);
  }
});
