/** Tests of the endpoints' minutes: tolerant reading, the top endpoints, the chart's series and the sparkline's points. */
import { describe, expect, test } from 'bun:test';
import type { TaskEndpoint } from '../../api/types';
import { parseTimeline, sparklinePoints, timelineChart, topEndpointsByRequests, withTimelines, type EndpointWithTimeline } from './endpoint-timeline';

const row = (name: string, requests: number, timeline?: unknown): TaskEndpoint =>
  ({ name, requests, errors: 0, error_rate: 0, requests_per_sec: 0, p50: 0, p95: 0, p99: 0, max: 0, ...(timeline === undefined ? {} : { timeline }) }) as TaskEndpoint;

describe('endpoint timeline', () => {
  test('a row without the field, or with anything but an array, has no minutes', () => {
    expect(parseTimeline(undefined)).toEqual([]);
    expect(parseTimeline(null)).toEqual([]);
    expect(parseTimeline({ t: 1 })).toEqual([]);
    expect(withTimelines([row('home', 3)])[0]).toMatchObject({ name: 'home', requests: 3, timeline: [] });
  });

  test('entries are read oldest first; without a time they are dropped, missing numbers read as 0', () => {
    expect(
      parseTimeline([
        { t: 120, requests_per_sec: 2, error_rate: 0.5, p95: 40 },
        { t: 60, requests_per_sec: 1 },
        { requests_per_sec: 9 },
        'noise',
        { t: Number.NaN },
      ]),
    ).toEqual([
      { t: 60, requests_per_sec: 1, error_rate: 0, p95: 0 },
      { t: 120, requests_per_sec: 2, error_rate: 0.5, p95: 40 },
    ]);
  });

  test('the top endpoints by requests, (other) left out, in name order', () => {
    const rows = [row('b', 50), row('(other)', 900), row('a', 10), row('c', 50), row('d', 5)];
    expect(topEndpointsByRequests(rows, 3).map((r) => r.name)).toEqual(['a', 'b', 'c']);
    // A tie at the cut goes by name, so a refetch with equal counts keeps the same set.
    expect(topEndpointsByRequests(rows, 2).map((r) => r.name)).toEqual(['b', 'c']);
    expect(topEndpointsByRequests(rows.slice(0, 2), 10).map((r) => r.name)).toEqual(['b']);
  });

  test('series over the union of minutes; gaps where an endpoint has no entry or no requests', () => {
    const rows: EndpointWithTimeline[] = withTimelines([
      row('home', 10, [
        { t: 60, requests_per_sec: 2, error_rate: 0.25, p95: 30 },
        { t: 120, requests_per_sec: 0, error_rate: 0, p95: 0 },
      ]),
      row('login', 5, [{ t: 120, requests_per_sec: 1, error_rate: 0, p95: 80 }]),
    ]);
    expect(timelineChart(rows, 'requests_per_sec')).toEqual({
      times: [60, 120],
      series: [
        { label: 'home', values: [2, 0] },
        { label: 'login', values: [null, 1] },
      ],
    });
    expect(timelineChart(rows, 'p95').series.map((s) => s.values)).toEqual([
      [30, null],
      [null, 80],
    ]);
    expect(timelineChart(rows, 'error_rate').series[0]!.values).toEqual([25, null]);
    expect(timelineChart([], 'p95')).toEqual({ times: [], series: [] });
  });

  test('sparkline points span the box, 0 at the bottom', () => {
    expect(sparklinePoints([], 60, 20)).toBe('');
    expect(sparklinePoints([0, 5, 10], 62, 22)).toBe('1,21 31,11 61,1');
    expect(sparklinePoints([4], 62, 22)).toBe('1,1 61,1');
    expect(sparklinePoints([0, 0], 62, 22)).toBe('1,21 61,21');
  });
});
