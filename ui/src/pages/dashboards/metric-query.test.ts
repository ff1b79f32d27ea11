/** Dashboard queries: the stored query with the dashboard's range, the answer as chart columns, the editor's fields. */
import { describe, expect, test } from 'bun:test';
import { alignedColumnsOf, durationSeconds, lastValuesOf, queryParams, rangeOf, requestOf, seriesLabelOf, seriesLabelsOf } from './metric-query';
import { draftOfPanel, panelOfDraft, validatePanel } from './panel-draft';

describe('metric queries', () => {
  test('a stored query string or object as parameters, filters repeated', () => {
    expect(queryParams('?metric=latency_p95&step=10s').get('metric')).toBe('latency_p95');
    const params = queryParams({ metric: 'requests', run: ['a', 'b'], by: '', skip: null });
    expect(params.getAll('run')).toEqual(['a', 'b']);
    expect(params.get('by')).toBe('');
    expect(params.has('skip')).toBe(false);
  });
  test('durations as the API reads them', () => {
    expect(durationSeconds('10s')).toBe(10);
    expect(durationSeconds('1m30s')).toBe(90);
    expect(durationSeconds('15')).toBe(15);
    expect(durationSeconds('ten')).toBeNull();
    expect(durationSeconds('0')).toBeNull();
  });
  test('ranges: relative to now, or a run with a second of margin each side', () => {
    expect(rangeOf({ kind: 'relative', id: '15m' })).toEqual({ start: '-15m', end: 'now', seconds: 900 });
    const run = { created_at: '2026-01-01T00:00:00Z', started_at: '2026-01-01T00:00:10Z', finished_at: '2026-01-01T00:00:20Z' };
    const start = Date.parse(run.started_at) / 1000;
    expect(rangeOf({ kind: 'run', runId: 'x' }, run)).toEqual({ start: String(start - 1), end: String(start + 11), seconds: 12 });
    expect(rangeOf({ kind: 'run', runId: 'x' }, null)).toBeNull();
    // A live run ends now.
    const live = rangeOf({ kind: 'run', runId: 'x' }, { ...run, finished_at: null }, Date.parse('2026-01-01T00:01:00Z'));
    expect(live?.end).toBe(String(start + 51));
  });
  test("the dashboard's range replaces the panel's, and a step too fine for it is dropped", () => {
    const range = { start: '-24h', end: 'now', seconds: 86_400 };
    expect(requestOf('metric=requests&start=-5m&step=1s&run=~a.*', range)).toBe('metric=requests&run=%7Ea.*&start=-24h&end=now');
    expect(requestOf({ metric: 'requests', step: '1m' }, range)).toBe('metric=requests&step=1m&start=-24h&end=now');
  });
  test('answers become aligned columns, a quiet stretch breaks the line', () => {
    const result = {
      metric: 'request_rate',
      unit: 'requests/s',
      start: 0,
      end: 100,
      step: 10,
      by: ['run'],
      series: [
        { labels: { run: 'r1' }, points: [[10, 1], [20, 2], [60, 3]] },
        { labels: { run: 'r2' }, points: [[20, 5]] },
      ],
    };
    const data = alignedColumnsOf(result);
    expect(data.times).toEqual([10, 20, 30, 60]);
    expect(seriesLabelsOf(result, (label, value) => (label === 'run' ? `#${value}` : value))).toEqual(['run #r1', 'run #r2']);
    expect(data.columns).toEqual([
      [1, 2, null, 3],
      [null, 5, null, null],
    ]);
    expect(seriesLabelOf({}, undefined, 'requests')).toBe('requests');
    expect(lastValuesOf({ metric: 'm', unit: '', start: 0, end: 1, step: 1, by: [], series: [{ labels: {}, points: [[1, 4], [2, 7]] }] })).toEqual([
      { label: 'm', value: 7, at: 2 },
    ]);
  });
});

describe('panel editor', () => {
  test('a stored panel as fields, unknown and repeated parameters kept', () => {
    const draft = draftOfPanel({ title: 'p95', chart: 'line', query: 'metric=latency_p95&step=10s&by=machine&run=a&run=b&start=-1h' });
    expect(draft).toMatchObject({ metric: 'latency_p95', step: '10s', by: 'machine', run: '', extra: 'run=a&run=b' });
    expect(panelOfDraft(draft).query).toBe('metric=latency_p95&by=machine&step=10s&run=a&run=b');
    // No `by` stored: split by run (the API's default), and not written back.
    const byRun = draftOfPanel({ title: 't', chart: 'stat', query: { metric: 'requests' } });
    expect(byRun.by).toBe('run');
    expect(panelOfDraft(byRun).query).toBe('metric=requests');
    expect(panelOfDraft({ ...byRun, by: '' }).query).toBe('metric=requests&by=');
  });
  test('checks before saving', () => {
    const draft = draftOfPanel(null);
    expect(Object.keys(validatePanel(draft))).toEqual(['title']);
    expect(Object.keys(validatePanel({ ...draft, title: 'x', step: '10 sec', run: '~(' })).sort()).toEqual(['run', 'step']);
    expect(panelOfDraft({ ...draft, title: ' Requests ', run: 'abc' })).toEqual({ title: 'Requests', chart: 'line', query: 'metric=request_rate&run=abc' });
  });
});

/** The columns as a set of every time and a map per series would build them: the reference the one-pass merge must equal. */
function referenceColumns(step: number, series: number[][][]) {
  const present = [...new Set(series.flatMap((points) => points.map((p) => p[0]!)))].sort((a, b) => a - b);
  const times: number[] = [];
  for (const t of present) {
    const previous = times[times.length - 1];
    if (previous !== undefined && t - previous > step * 1.5) times.push(previous + step);
    times.push(t);
  }
  const index = new Map(times.map((t, i) => [t, i]));
  const columns = series.map((points) => {
    const values: (number | null)[] = times.map(() => null);
    for (const [t, value] of points) {
      const at = index.get(t!);
      if (at !== undefined && value !== undefined && Number.isFinite(value)) values[at] = value;
    }
    return values;
  });
  return { times, columns };
}

test('aligned columns in one pass equal the reference on seeded random answers (gaps, unsorted series, non-finite values)', () => {
  for (let seed = 1; seed <= 200; seed++) {
    let state = seed;
    const random = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const step = 1 + Math.floor(random() * 10);
    const series = Array.from({ length: Math.floor(random() * 5) }, () => {
      const points: number[][] = [];
      let t = Math.floor(random() * 5) * step;
      for (let n = Math.floor(random() * 30); n > 0; n--) {
        t += step * (random() < 0.8 ? 1 : 2 + Math.floor(random() * 4));
        points.push([t, random() < 0.05 ? Number.NaN : Math.round(random() * 1000)]);
      }
      if (random() < 0.2) points.reverse();
      return points;
    });
    const result = { metric: 'm', unit: '', start: 0, end: 0, step, by: [], series: series.map((points) => ({ labels: {}, points })) };
    const answer = alignedColumnsOf(result);
    const reference = referenceColumns(step, series);
    expect(answer.times).toEqual(reference.times);
    expect(answer.columns.map((column) => column.map((v) => (v === null || Number.isNaN(v) ? null : v)))).toEqual(reference.columns);
  }
});
