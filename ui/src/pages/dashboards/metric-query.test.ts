/** Dashboard queries: the stored query with the dashboard's range, an answer's labels and last values, the editor's fields. */
import { describe, expect, test } from 'bun:test';
import { durationSeconds, lastValuesOf, queryParams, rangeOf, requestOf, seriesLabelOf, seriesLabelsOf } from './metric-query';
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
  test('series labels and last values of an answer in columns (aligned by the API)', () => {
    const result = {
      metric: 'request_rate',
      unit: 'requests/s',
      start: 0,
      end: 100,
      step: 10,
      by: ['run'],
      times: [10, 20, 30, 60],
      series: [
        { labels: { run: 'r1' }, values: [1, 2, null, 3] },
        { labels: { run: 'r2' }, values: [null, 5, null, null] },
        { labels: { run: 'r3' }, values: [null, null, null, null] },
      ],
    };
    expect(seriesLabelsOf(result, (label, value) => (label === 'run' ? `#${value}` : value))).toEqual(['run #r1', 'run #r2', 'run #r3']);
    expect(seriesLabelOf({}, undefined, 'requests')).toBe('requests');
    // The last value a series has, and its time; none for a series without any.
    expect(lastValuesOf(result)).toEqual([
      { label: 'run r1', value: 3, at: 60 },
      { label: 'run r2', value: 5, at: 20 },
      { label: 'run r3', value: null, at: null },
    ]);
    expect(lastValuesOf({ ...result, by: [], times: [1, 2], series: [{ labels: {}, values: [4, 7] }] })).toEqual([{ label: 'request_rate', value: 7, at: 2 }]);
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
