/**
 * Metric queries over one run of 1 hour at 1 s resolution from 4 machines (14,400 stored points, each with its latency
 * histogram), inserted directly into the database, then GET /api/v1/metrics/query (and the Prometheus API) timed
 * in-process, one call at a time: p50 and p99 over repeated calls, PostgreSQL (a throwaway cluster) beside PGlite.
 *
 *   ./node_modules/.bin/bun bench/metrics-query.ts [pglite] [postgres] [--iterations 60]
 */
import { createMetricRun, insertPoints, type PointSpec } from '../tests/helpers/metric-points.ts';
import { POSTGRES_SKIP_MESSAGE, startPostgresServer } from '../tests/helpers/postgres-server.ts';
import { startTestService } from '../tests/helpers/test-service.ts';
import { seededRandom } from '../tests/helpers/seeded-random.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const iterations = option('iterations', 60);
const modes = args.filter((a) => a === 'pglite' || a === 'postgres');
if (modes.length === 0) modes.push('pglite', 'postgres');

const machines = ['a', 'b', 'c', 'd'].map((m) => `00000000-0000-4000-8000-00000000000${m}`);
const seconds = 3600;
const requestsPerSecond = 50;

/** 4 machines x 3,600 one-second points; latencies spread log-normally (~20 ms median, a slow tail). */
function points(end: number): PointSpec[] {
  const seeded = seededRandom(11);
  const random = seeded.next;
  const out: PointSpec[] = [];
  for (let s = 0; s < seconds; s++) {
    for (const machineId of machines) {
      const latencies = Array.from({ length: requestsPerSecond }, () => Math.exp(3 + 0.6 * gaussian(random)));
      out.push({ machineId, t: end - seconds + s + 1, latencies, errors: random() < 0.05 ? 1 : 0 });
    }
  }
  return out;
}

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

async function bench(mode: string) {
  let postgres: Awaited<ReturnType<typeof startPostgresServer>> = null;
  if (mode === 'postgres') {
    postgres = await startPostgresServer();
    if (!postgres) {
      console.error(POSTGRES_SKIP_MESSAGE);
      return [];
    }
  }
  const ts = await startTestService({ database: postgres ? postgres.url : 'memory' });
  try {
    const owner = await ts.createUser('bench-metrics');
    const run = await createMetricRun(ts, owner, 'bench');
    const end = Math.floor(Date.now() / 1000);
    const started = performance.now();
    await insertPoints(ts, run, points(end));
    const insertMillis = performance.now() - started;
    const range = `start=${end - seconds}&end=${end}&run=${run.taskId}`;
    const prom = (query: string, step: number) =>
      `/api/v1/prometheus/api/v1/query_range?${new URLSearchParams({ query, start: String(end - seconds), end: String(end), step: String(step) })}`;
    const cases: [string, string][] = [
      ['p95, default step (15 s), machines merged', `/api/v1/metrics/query?metric=latency_p95&${range}`],
      ['p99 per machine, step 1 s (14,400 histograms, 14,400 values)', `/api/v1/metrics/query?metric=latency_p99&${range}&step=1s&by=machine`],
      ['request rate, step 10 s', `/api/v1/metrics/query?metric=request_rate&${range}&step=10s`],
      ['Prometheus: histogram_quantile(0.95, sum(rate(..[1m]))), step 15 s', prom(`histogram_quantile(0.95, sum(rate(loadplane_request_duration_seconds{run="${run.taskId}"}[1m])))`, 15)],
      ['Prometheus: sum(rate(requests[1m])), step 15 s', prom(`sum(rate(loadplane_requests_total{run="${run.taskId}"}[1m]))`, 15)],
    ];
    const rows: string[] = [];
    for (const [name, path] of cases) {
      const call = async () => {
        const response = await ts.request(path, { token: owner });
        const text = await response.text();
        if (response.status !== 200) throw new Error(`${name}: ${response.status} ${text.slice(0, 300)}`);
        return text;
      };
      const first = JSON.parse(await call()) as { series?: { points: unknown[] }[]; data?: { result: { values: unknown[] }[] } };
      const values = first.series ? first.series.reduce((n, s) => n + s.points.length, 0) : first.data!.result.reduce((n, s) => n + s.values.length, 0);
      for (let i = 0; i < 5; i++) await call();
      const millis: number[] = [];
      for (let i = 0; i < iterations; i++) {
        const at = performance.now();
        await call();
        millis.push(performance.now() - at);
      }
      millis.sort((a, b) => a - b);
      rows.push(`| ${mode} | ${name} | ${values} | ${quantile(millis, 0.5).toFixed(1)} | ${quantile(millis, 0.99).toFixed(1)} |`);
    }
    console.error(`${mode}: inserted ${machines.length * seconds} points in ${(insertMillis / 1000).toFixed(1)} s`);
    return rows;
  } finally {
    await ts.stop();
    await postgres?.stop();
  }
}

const table = ['| database | query | values answered | p50 ms | p99 ms |', '|---|---|---|---|---|'];
for (const mode of modes) table.push(...(await bench(mode)));
console.log(`Metric queries over 1 h x 1 s x 4 machines (${iterations} calls each, in-process, one at a time)\n`);
console.log(table.join('\n'));
