/**
 * OTLP ingest: sustained OTLP/HTTP metric exports into one run, from clients that each send a batch of gauge points
 * on a fixed schedule (open loop: a send falls due whether or not earlier ones have answered, up to 16 in flight per
 * client), against the service as a real process on PostgreSQL (a throwaway cluster) and on embedded PGlite (on disk).
 * Reports accepted points/s, request latency p50/p99, how late sends went out (lag), whether it fell behind, and that
 * GET /tasks/{id}/otel holds every accepted point afterwards.
 *
 *   ./node_modules/.bin/bun bench/otlp-ingest.ts [postgres] [pglite] [--rate 10000] [--batch 1000] [--clients 2]
 *       [--duration 30] [--warmup 3] [--encoding protobuf|json] [--series-per-client 1000]
 *
 * The service "fell behind" when it could not take the points as fast as they were sent: a client hit its in-flight
 * cap (16 requests unanswered), the last answer came more than 1 s after the schedule ended, fewer than 99 % of the
 * sent points were accepted, or a request failed. Send lag (how late the client's own sends left, a client-side
 * figure) is reported beside it. Everything runs on one machine: client, service and PostgreSQL share its cores.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProtobufReader } from '../core/domain/otlp/protobuf-reader.ts';
import { startPostgresServer } from '../tests/helpers/postgres-server.ts';
import { passwordGrant, startServiceProcess } from '../tests/helpers/service-process.ts';
import { type BenchExport, jsonExport, pointsOf, protobufExport } from './otlp-payload.ts';

const args = Bun.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1]! : fallback;
};
const modes = args.filter((a) => a === 'postgres' || a === 'pglite');
const rate = flag('rate', 10_000);
const batch = flag('batch', 1000);
const clients = flag('clients', 2);
const durationS = flag('duration', 30);
const warmupS = flag('warmup', 3);
const encoding = option('encoding', 'protobuf') as 'protobuf' | 'json';
const maxInFlight = 16;
/** Each client's request: `metrics` gauges x `labelSets` series, one point each, all at the send time. */
const metricsPerRequest = 50;
const setsPerRequest = Math.max(1, Math.round(batch / metricsPerRequest));
const intervalMs = (clients * batch * 1000) / rate;

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** rejected_data_points of an ExportMetricsServiceResponse (0 for an empty one). */
function rejectedOf(bytes: Uint8Array): number {
  const reader = new ProtobufReader(bytes);
  while (!reader.done) {
    const [field, wire] = reader.tag();
    if (field !== 1) {
      reader.skip(wire);
      continue;
    }
    const partial = reader.message();
    while (!partial.done) {
      const [inner, innerWire] = partial.tag();
      if (inner === 1) return partial.varint();
      partial.skip(innerWire);
    }
  }
  return 0;
}

interface Sample {
  latencyMs: number;
  accepted: number;
  lagMs: number;
  measured: boolean;
  failed: string | null;
}

async function client(index: number, url: string, token: string, taskId: string, startAt: number, endAt: number, measureFrom: number) {
  const samples: Sample[] = [];
  const inFlight = new Set<Promise<void>>();
  let capped = 0;
  const labelSets = Array.from({ length: setsPerRequest }, (_, s) => ({ route: `/r${s}`, status: String(200 + (s % 5)) }));
  const metrics = Array.from({ length: metricsPerRequest }, (_, m) => `bench.metric.${m}`);
  const headers = { authorization: `Bearer ${token}`, 'content-type': encoding === 'protobuf' ? 'application/x-protobuf' : 'application/json' };
  for (let k = 0; ; k++) {
    const due = startAt + k * intervalMs;
    if (due >= endAt) break;
    const wait = due - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    while (inFlight.size >= maxInFlight) {
      capped += 1;
      await Promise.race(inFlight);
    }
    const body: BenchExport = {
      resource: { 'service.name': 'bench', 'service.instance.id': `client-${index}`, 'loadplane.task_id': taskId },
      metrics,
      labelSets,
      timeNs: BigInt(Date.now()) * 1_000_000n + BigInt(k % 1_000_000),
      value: (m, s) => m * 1000 + s + k,
    };
    const points = pointsOf(body);
    const payload = encoding === 'protobuf' ? protobufExport(body) : jsonExport(body);
    // Latency is the request's alone: the payload is built before the clock starts (lag counts from when it was due).
    const sentAt = performance.now();
    const request = (async () => {
      let failed: string | null = null;
      let accepted = 0;
      try {
        const response = await fetch(url, { method: 'POST', headers, body: payload as BodyInit });
        const bytes = new Uint8Array(await response.arrayBuffer());
        if (response.status !== 200) failed = `${response.status} ${new TextDecoder().decode(bytes).slice(0, 200)}`;
        else if (encoding === 'protobuf') accepted = points - rejectedOf(bytes);
        else {
          const text = new TextDecoder().decode(bytes);
          const parsed = JSON.parse(text) as { partialSuccess?: { rejectedDataPoints?: string } };
          accepted = points - Number(parsed.partialSuccess?.rejectedDataPoints ?? 0);
        }
      } catch (error) {
        failed = String(error);
      }
      samples.push({ latencyMs: performance.now() - sentAt, accepted, lagMs: sentAt - due, measured: due >= measureFrom, failed });
    })();
    inFlight.add(request);
    void request.finally(() => inFlight.delete(request));
  }
  await Promise.all(inFlight);
  return { samples, capped };
}

async function countStored(base: string, token: string, taskId: string) {
  let points = 0;
  let series = 0;
  let next: string | null = `/api/v1/tasks/${taskId}/otel?limit=1000`;
  while (next) {
    const response: Response = await fetch(`${base}${next}`, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200) throw new Error(`GET otel: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as { metrics: { points: unknown[] }[] };
    series += page.metrics.length;
    points += page.metrics.reduce((n, m) => n + m.points.length, 0);
    const link: string | null = response.headers.get('link');
    next = link ? /^<([^>]+)>/.exec(link)![1]! : null;
  }
  return { points, series };
}

async function bench(mode: 'postgres' | 'pglite') {
  const postgres = mode === 'postgres' ? await startPostgresServer() : null;
  if (mode === 'postgres' && !postgres) throw new Error('no PostgreSQL server binaries found');
  const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-otlp-bench-'));
  const password = `bench-${crypto.randomUUID()}`;
  const clientSecret = `bench-${crypto.randomUUID()}`;
  const service = await startServiceProcess({
    env: {
      DATA_DIR: dataDir,
      LOCAL_AGENT: 'false',
      LOG_LEVEL: 'warn',
      AUTH_CLIENT_SECRET: clientSecret,
      BOOTSTRAP_ADMIN_USERNAME: 'admin',
      BOOTSTRAP_ADMIN_PASSWORD: password,
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    },
    embedded: mode === 'pglite',
    timeoutMs: 120_000,
  });
  try {
    const jwt = await passwordGrant(service.url, { username: 'admin', password, clientSecret });
    const api = async (path: string, body: unknown) => {
      const response = await fetch(`${service.url}/api/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as Record<string, string>;
    };
    // An API token with metrics:read, as an SDK in the system under test would hold; a run to attach the points to.
    const { token } = await api('/api-tokens', { name: 'otlp-bench', scopes: ['metrics:read'] });
    const test = await api('/tests', { name: 'otlp-bench', tool: 'custom', script: 'sleep 1' });
    const task = await api('/tasks', { testId: test.id });

    const url = `${service.url}/api/v1/otlp/v1/metrics`;
    const startAt = performance.now() + 200;
    const measureFrom = startAt + warmupS * 1000;
    const endAt = measureFrom + durationS * 1000;
    const results = await Promise.all(
      Array.from({ length: clients }, (_, i) => client(i, url, token!, task.public_id!, startAt + (i * intervalMs) / clients, endAt, measureFrom)),
    );
    const drained = performance.now();
    const all = results.flatMap((r) => r.samples);
    const measured = all.filter((s) => s.measured);
    const failures = all.filter((s) => s.failed);
    const acceptedMeasured = measured.reduce((n, s) => n + s.accepted, 0);
    const acceptedAll = all.reduce((n, s) => n + s.accepted, 0);
    const latencies = measured.map((s) => s.latencyMs);
    const lags = measured.map((s) => s.lagMs);
    const capped = results.reduce((n, r) => n + r.capped, 0);
    const maxLag = Math.max(...lags);
    const stored = await countStored(service.url, jwt, task.id!);
    return {
      mode,
      encoding,
      setup: `${clients} x ${batch} pts every ${intervalMs.toFixed(0)} ms`,
      target: rate,
      acceptedPerSecond: acceptedMeasured / durationS,
      requests: measured.length,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      maxLag,
      drainMs: drained - endAt,
      capped,
      fellBehind: capped > 0 || drained - endAt > 1000 || acceptedMeasured < 0.99 * rate * durationS || failures.length > 0,
      failures: failures.length,
      firstFailure: failures[0]?.failed ?? null,
      stored: stored.points,
      acceptedAll,
      series: stored.series,
    };
  } finally {
    await service.stop();
    await postgres?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const rows = [];
for (const mode of modes.length > 0 ? modes : (['postgres', 'pglite'] as const)) {
  console.error(`otlp-ingest: ${mode}, ${encoding}, ${clients} clients x ${batch} points every ${intervalMs.toFixed(0)} ms (${rate} points/s) for ${durationS} s after ${warmupS} s warm-up`);
  const row = await bench(mode);
  console.error(`  ${JSON.stringify(row)}`);
  rows.push(row);
}
console.log('| database | encoding | clients | target points/s | accepted points/s | requests | p50 ms | p99 ms | max send lag ms | last answer after schedule end | fell behind | stored = accepted |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.mode} | ${r.encoding} | ${r.setup} | ${r.target} | ${Math.round(r.acceptedPerSecond)} | ${r.requests} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.maxLag.toFixed(1)} | ${Math.max(0, r.drainMs).toFixed(0)} ms | ${r.fellBehind ? `yes${r.capped ? ` (in-flight cap hit ${r.capped}x)` : ''}${r.failures ? ` (${r.failures} failed: ${r.firstFailure})` : ''}` : 'no'} | ${r.stored} = ${r.acceptedAll} (${r.series} series) |`,
  );
}
