/**
 * Reading a long run's results: `GET /tasks/{id}/endpoints` and `GET /tasks/{id}/timeseries` for a 1-hour run from
 * 8 machines with 50 endpoints, on a throwaway PostgreSQL and on PGlite (reference).
 *
 * The run is stored exactly as the agent session stores it (core/services/runs/agent-sessions.ts, `metrics`): per
 * machine and second one transaction with the interval point (task_metric_points) and `storeIntervalEndpoints` (the
 * per-endpoint minute rows, folded into each machine's total once a minute closed). The 8 machines send each second
 * together (8 transactions at once), second after second, 3,600 seconds: 28,800 intervals, each with 50 endpoints of
 * `--rate` requests (latencies drawn from a log-normal per endpoint, so histograms carry realistic bucket counts).
 * Then N requests of each route one after the other, in process (`app.handle`, as tests/helpers/test-service.ts does),
 * the routes alternating, after a warm-up; once as the seeding left the tables, once after `VACUUM ANALYZE`. The service
 * keeps a run's answers while its rows stay the same: the first read of each route (computed) is reported apart.
 *
 * Run: ./node_modules/.bin/bun bench/endpoint-results.ts postgres pglite [--seconds 3600 --machines 8 --endpoints 50
 *      --rate 20 --requests 200]
 */
import { readFileSync } from 'node:fs';
import type { MetricSnapshot } from '../core/capabilities/load-tool.ts';
import { LatencyHistogram } from '../core/domain/metrics/histogram.ts';
import { storeMetricInterval } from '../core/services/metrics/store-metric-interval.ts';
import { sqlOf } from '../core/services/sql.ts';
import { createMetricRun } from '../tests/helpers/metric-points.ts';
import { POSTGRES_SKIP_MESSAGE, startPostgresServer } from '../tests/helpers/postgres-server.ts';
import { freePort } from '../tests/helpers/service-process.ts';
import { startTestService, type TestService } from '../tests/helpers/test-service.ts';
import { fmt, fmtInt, markdownTable, parseFlags, percentile } from './runs/harness.ts';
import { seededRandom } from '../tests/helpers/seeded-random.ts';

const { flags, words } = parseFlags(process.argv.slice(2), { seconds: '3600', machines: '8', endpoints: '50', rate: '20', requests: '200', warmup: '10' });
const modes = (words.length > 0 ? words : ['postgres', 'pglite']) as ('postgres' | 'pglite')[];
const seconds = Number(flags.seconds);
const machineCount = Number(flags.machines);
const endpointCount = Number(flags.endpoints);
const rate = Number(flags.rate);
const requests = Number(flags.requests);
const warmup = Number(flags.warmup);

// A small deterministic PRNG (mulberry32) and a log-normal latency per endpoint: medians 5..200 ms, spread 0.5.
const prng = (seed: number) => seededRandom(seed).next;
const endpointNames = Array.from({ length: endpointCount }, (_, i) => `${['GET', 'POST', 'PUT', 'DELETE'][i % 4]} /api/resource-${i}/items`);
const medians = Array.from({ length: endpointCount }, (_, i) => 5 * Math.pow(40, i / Math.max(1, endpointCount - 1)));

function intervalSnapshot(random: () => number, startMs: number): MetricSnapshot {
  const overall = new LatencyHistogram();
  let errors = 0;
  const endpoints = endpointNames.map((name, i) => {
    const histogram = new LatencyHistogram();
    for (let r = 0; r < rate; r++) {
      // Box-Muller: a normal sample, then the log-normal latency.
      const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      const ms = medians[i]! * Math.exp(0.5 * normal);
      histogram.record(ms);
      overall.record(ms);
    }
    const failed = random() < 0.05 ? 1 : 0;
    errors += failed;
    return { name, requests: rate, errors: failed, histogram: histogram.encode() };
  });
  return { histogram: overall.encode(), requests: rate * endpointCount, errors, startedAt: startMs, endedAt: startMs + 1000, endpoints };
}

/** As the agent session stores an interval: the point and its per-endpoint figures in one transaction. */
const storeInterval = (ts: TestService, run: { workspaceId: string; taskId: string; testId: string }, machineId: string, snapshot: MetricSnapshot) =>
  storeMetricInterval(ts.service.database, { ...run, machineId }, snapshot);

interface Timing {
  route: string;
  ms: number[];
  bytes: number;
  /** The first request: the service computes the answer (later ones may read what it kept for the finished run). */
  first: number;
}

async function timeRoutes(ts: TestService, token: string, taskId: string): Promise<Timing[]> {
  const routes = [`/api/v1/tasks/${taskId}/endpoints`, `/api/v1/tasks/${taskId}/timeseries`, `/api/v1/tasks/${taskId}/endpoints?timeline=true`];
  const timings: Timing[] = routes.map((route) => ({ route: route.replace(taskId, '{id}'), ms: [], bytes: 0, first: 0 }));
  for (let i = 0; i < warmup + requests; i++) {
    for (const [index, route] of routes.entries()) {
      const started = performance.now();
      const response = await ts.request(route, { token });
      const body = await response.text();
      const ms = performance.now() - started;
      if (response.status !== 200) throw new Error(`${route}: ${response.status} ${body.slice(0, 500)}`);
      if (i >= warmup) timings[index]!.ms.push(ms);
      if (i === 0) timings[index]!.first = ms;
      timings[index]!.bytes = body.length;
    }
  }
  return timings;
}

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const rows: (string | number)[][] = [];
const seedRows: (string | number)[][] = [];
for (const mode of modes) {
  const postgres = mode === 'postgres' ? await startPostgresServer() : null;
  if (mode === 'postgres' && !postgres) {
    console.log(`postgres: skipped, ${POSTGRES_SKIP_MESSAGE}`);
    continue;
  }
  // PGlite on disk under the data directory, as `npm start` keeps it.
  const ts = await startTestService({ port: await freePort(), database: postgres ? postgres.url : 'disk' });
  try {
    // An API token: seeding takes minutes, longer than a JWT from the password grant lives.
    const { token } = await ts.apiToken(`reader-${mode}`);
    const run = await createMetricRun(ts, token, `endpoints-${mode}`);
    const machines = Array.from({ length: machineCount }, (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`);
    const randoms = machines.map((_, i) => prng(1000 + i));
    // A minute-aligned start an hour and a bit ago.
    const start = Math.floor(Date.now() / 60_000) * 60_000 - (seconds + 120) * 1000;
    const seedStarted = performance.now();
    const cpuStarted = process.cpuUsage();
    for (let s = 0; s < seconds; s++) {
      await Promise.all(machines.map((machineId, m) => storeInterval(ts, run, machineId, intervalSnapshot(randoms[m]!, start + s * 1000 + m * 7))));
      if ((s + 1) % 600 === 0) console.error(`${mode}: ${s + 1}/${seconds} s stored (${fmt((performance.now() - seedStarted) / 1000, 0)} s, load ${loadAverage()})`);
    }
    const seedS = (performance.now() - seedStarted) / 1000;
    const cpu = process.cpuUsage(cpuStarted);
    const intervals = seconds * machineCount;
    const sql = sqlOf(ts.service.database);
    const [stored] = await sql.all<{ rows: number; points: number; requests: number }>(
      `select (select count(*)::int from task_endpoint_minutes where task_id = ?) as rows,
              (select count(*)::int from task_metric_points where task_id = ?) as points,
              (select sum(requests)::float8 from task_endpoint_minutes where task_id = ?) as requests`,
      [run.taskId, run.taskId, run.taskId],
    );
    if (stored!.points !== intervals || stored!.requests !== intervals * endpointCount * rate) throw new Error(`stored ${JSON.stringify(stored)}, expected ${intervals} points`);
    seedRows.push([mode, fmtInt(intervals), fmt(seedS, 0), fmt(((cpu.user + cpu.system) / 1000) / intervals, 2), fmt((seedS * 1000) / seconds, 1), stored!.rows, fmtInt(stored!.points)]);
    console.error(`${mode}: seeded ${intervals} intervals in ${fmt(seedS, 0)} s; ${stored!.rows} endpoint rows`);

    // The answer is right: 50 endpoints, every request counted (the first read of the route: computed, timed).
    const checkStarted = performance.now();
    const answer = await ts.request(`/api/v1/tasks/${run.taskId}/endpoints`, { token });
    const text = await answer.text();
    const firstEndpointsMs = performance.now() - checkStarted;
    const endpoints = (answer.status === 200 ? JSON.parse(text) : []) as { requests: number }[];
    if (endpoints.length !== endpointCount || endpoints.reduce((sum, one) => sum + one.requests, 0) !== intervals * endpointCount * rate) {
      throw new Error(`endpoints answer: ${answer.status} ${text.slice(0, 500)}`);
    }

    for (const phase of ['as stored', 'after VACUUM ANALYZE']) {
      if (phase !== 'as stored') await sql.all('vacuum analyze');
      const load = loadAverage();
      for (const timing of await timeRoutes(ts, token, run.taskId)) {
        if (phase === 'as stored' && timing.route.endsWith('/endpoints')) timing.first = firstEndpointsMs;
        rows.push([
          mode,
          phase,
          `\`GET ${timing.route}\``,
          requests,
          fmt(timing.first, 1),
          fmt(percentile(timing.ms, 50), 1),
          fmt(percentile(timing.ms, 95), 1),
          `**${fmt(percentile(timing.ms, 99), 1)}**`,
          fmt(Math.max(...timing.ms), 1),
          fmtInt(timing.bytes),
          load,
        ]);
        console.error(`${mode} ${phase} ${timing.route}: p50 ${fmt(percentile(timing.ms, 50), 1)} p99 ${fmt(percentile(timing.ms, 99), 1)} ms`);
      }
    }
  } finally {
    await ts.stop();
    await postgres?.stop();
  }
}

console.log(`\n${markdownTable(['database', 'intervals stored', 'seconds to store', 'seeding process CPU ms / interval', 'ms per second of run (8 machines)', 'endpoint rows', 'interval points'], seedRows)}`);
console.log(`\n${markdownTable(['database', 'tables', 'route', 'requests', 'first read ms', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'bytes', 'load average before'], rows)}`);
