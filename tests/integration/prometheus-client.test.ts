/**
 * The Prometheus API with a real client: prometheus-api-client (PyPI, installed into ~/.cache/loadplane/py-test by
 * scripts/py-test-env.sh) lists metrics and label values, finds series, runs instant and range queries (GET and
 * POST), reads raw points, and gets its error for a bad query, authenticated with a psk_ token holding metrics:read.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { LatencyHistogram } from '../../core/domain/metrics/histogram.ts';
import { createMetricRun, insertPoints, type MetricRun } from '../helpers/metric-points.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let ts: TestService;
let url: string;
let python: string;
let token: string;
let run: MetricRun;
const machineA = '00000000-0000-4000-8000-0000000000a1';
const machineB = '00000000-0000-4000-8000-0000000000b1';
const base = Math.floor(Date.now() / 1000 / 60) * 60 - 3600;
const fast = Array.from({ length: 190 }, () => 10);
const slow = Array.from({ length: 10 }, (_, i) => 100 + i * 10);

beforeAll(async () => {
  const install = Bun.spawnSync(['sh', 'scripts/py-test-env.sh'], { stderr: 'pipe' });
  if (install.exitCode !== 0) throw new Error(`scripts/py-test-env.sh failed: ${install.stderr.toString()}`);
  python = install.stdout.toString().trim();
  ts = await startTestService({ port: await freePort() });
  url = await ts.listen();
  const user = await ts.apiToken('prom-client', ['metrics:read']);
  token = user.token;
  run = await createMetricRun(ts, user.jwt);
  const points = [];
  for (let s = 1; s <= 60; s++) {
    points.push({ machineId: machineA, t: base + s, latencies: fast });
    points.push({ machineId: machineB, t: base + s, latencies: slow, errors: 1 });
  }
  await insertPoints(ts, run, points);
}, 300_000);
afterAll(() => ts?.stop());

describe('prometheus-api-client against the Prometheus API', () => {
  test('metrics, labels, series, instant and range queries, raw points, errors', async () => {
    const child = Bun.spawn([python, 'tests/helpers/prometheus-client-check.py', url, token, String(base), machineA], { stdout: 'pipe', stderr: 'pipe' });
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    expect(code, stderr).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.metrics).toEqual(['loadplane_errors_total', 'loadplane_request_duration_seconds', 'loadplane_requests_total']);
    expect(out.machines).toEqual([machineA, machineB]);
    expect(out.labels).toEqual(['__name__', 'machine', 'run', 'test']);
    expect(out.series).toEqual([{ __name__: 'loadplane_errors_total', run: run.taskId, machine: machineA, test: run.testId }]);
    expect(out.rate).toEqual([{ metric: {}, value: [base + 60, '200'] }]);
    expect(out.rate_post).toEqual(out.rate);
    const merged = new LatencyHistogram();
    for (const ms of [...fast, ...slow]) merged.record(ms);
    expect(out.p95_range).toEqual([{ metric: {}, values: Array.from({ length: 6 }, (_, i) => [base + 10 * (i + 1), String(merged.percentile(95) / 1000)]) }]);
    expect(out.raw).toHaveLength(1);
    expect(out.raw[0].metric).toMatchObject({ __name__: 'loadplane_requests_total', machine: machineA });
    expect(out.raw[0].values).toEqual(Array.from({ length: 10 }, (_, i) => [base + 51 + i, String(190 * (51 + i))]));
    expect(out.bad_query).toMatch(/HTTP Status Code 400.*bad_data/);
  }, 120_000);
});
