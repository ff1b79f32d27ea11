import { describe, expect, test } from 'bun:test';
import { fakeService, granted } from '../test-rest.ts';
import { runTool } from '../tool-registry.ts';
import { maxPointsPerSeries, maxSeries, queryMetrics, thinPoints } from './metrics.ts';

const series = (count: number, points: number) =>
  Array.from({ length: count }, (_, index) => ({ labels: { run: `r${index}` }, points: Array.from({ length: points }, (_, t) => [1000 + t, t]) }));

describe('query_metrics', () => {
  test('more points than the cap: asked again over the same range with a wider step, and says so', async () => {
    const { context, asked } = fakeService({
      'POST /usage/ai-tool-calls': granted,
      'GET /metrics/query': (_request, url) => {
        const step = Number.parseFloat(url.searchParams.get('step') ?? '1');
        return Response.json({ metric: 'requests', unit: 'requests', start: 0, end: 3600, step, by: ['run'], series: series(1, Math.ceil(3600 / step)) });
      },
    });
    const result = (await runTool(queryMetrics, { metric: 'requests', start: '-1h', step: '1s', run: ['~r.*', '!r9'] }, context)).structuredContent!;
    expect(asked.filter((call) => call.startsWith('GET'))).toEqual([
      'GET /metrics/query?metric=requests&start=-1h&step=1s&run=%7Er.*&run=%21r9',
      'GET /metrics/query?metric=requests&start=0&end=3600&step=12&run=%7Er.*&run=%21r9',
    ]);
    expect(result.step).toBe(12);
    expect((result.series as { points: unknown[] }[])[0]!.points).toHaveLength(maxPointsPerSeries);
    expect(result.note).toContain('step widened to 12 s');
  });

  test('more series than the cap: the first ones, with the count and a note', async () => {
    const { context } = fakeService({
      'POST /usage/ai-tool-calls': granted,
      'GET /metrics/query': () => Response.json({ metric: 'requests', unit: 'requests', start: 0, end: 60, step: 1, by: ['run'], series: series(maxSeries + 5, 3) }),
    });
    const result = (await runTool(queryMetrics, { metric: 'requests' }, context)).structuredContent!;
    expect((result.series as unknown[]).length).toBe(maxSeries);
    expect(result.series_total).toBe(maxSeries + 5);
    expect(result.note).toContain('filter by run');
  });
});

test('thinPoints keeps the first and the last, evenly between', () => {
  const points = Array.from({ length: 1000 }, (_, index) => [index, index]);
  const thinned = thinPoints(points, 300);
  expect(thinned).toHaveLength(300);
  expect(thinned[0]).toEqual([0, 0]);
  expect(thinned.at(-1)).toEqual([999, 999]);
  expect(thinPoints(points.slice(0, 10), 300)).toHaveLength(10);
});
