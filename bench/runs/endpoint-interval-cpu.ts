/**
 * What one second of a run of many steps costs per interval, in process and relative (CPU time, not a rate): the work
 * the agent and the server do each second for an `http`-tool run of 1 step vs `--steps` steps (issue 22's benchmark,
 * bench/endpoint-cost.ts, measures the same through a real agent and engine as requests/s).
 *
 * - The engine's output: its own bookkeeping (plugins/load-tool-http/engine/run-stats.ts) fed `--rate` requests per step
 *   and second (or `--total-rate` a second split over the steps: the same load for 1 and many, as in issue 22's
 *   benchmark, where the machine's own histogram is then alike), latencies log-uniform in 0.2–20 ms, 1% failing with a status 500 on every fifth step; `--distinct`
 *   different seconds of lines, made before anything is measured and replayed.
 * - Agent: per interval, the http parser reads the second's lines (`LOADPLANE_STEP` per step, then `LOADPLANE_METRICS`),
 *   takes the interval snapshot, the message is serialised as the agent sends it, and the progress reporter absorbs it
 *   (core/agent/run-assignment.ts, `emitInterval`).
 * - Server: per interval, what an agent's `metrics` message costs (core/services/runs/agent-sessions.ts and
 *   agent-metrics.ts): JSON.parse, the protocol check, `snapshotProblem`, then `storeMetricInterval` (the point and
 *   `storeIntervalEndpoints`) on PGlite in process and/or a throwaway PostgreSQL (its backends' CPU from /proc beside
 *   it). Intervals are one second apart, so minutes close and fold as in a run; each (steps, round) is a run of its own.
 *
 * Prints CPU ms per interval (median of the rounds, 1 and many steps alternating in order) and a digest of every agent
 * snapshot and of every run's stored answers (GET /endpoints with timelines, GET /errors): equal digests before and
 * after a change mean it changed no answer.
 * Run: ./node_modules/.bin/bun bench/runs/endpoint-interval-cpu.ts [agent] [pglite] [postgres]
 *      [--rounds 3 --intervals 150 --agent-intervals 300 --steps 50 --rate 2000 | --total-rate 20000, --distinct 10]
 */
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AgentMessage } from '../../core/agent/protocol.ts';
import { startProgressReporter } from '../../core/agent/progress-reporter.ts';
import type { MetricSnapshot } from '../../core/capabilities/load-tool.ts';
import { snapshotProblem } from '../../core/domain/metrics/check-snapshot.ts';
import { readRunEndpoints, readRunErrors } from '../../core/services/metrics/run-endpoints.ts';
import { storeMetricInterval } from '../../core/services/metrics/store-metric-interval.ts';
import { sqlOf } from '../../core/services/sql.ts';
import type { Clock } from '../../core/ports/clock.ts';
import { RunStats } from '../../plugins/load-tool-http/engine/run-stats.ts';
import { createHttpParser } from '../../plugins/load-tool-http/http-output-parser.ts';
import { createMetricRun } from '../../tests/helpers/metric-points.ts';
import { POSTGRES_SKIP_MESSAGE, startPostgresServer } from '../../tests/helpers/postgres-server.ts';
import { freePort } from '../../tests/helpers/service-process.ts';
import { startTestService } from '../../tests/helpers/test-service.ts';
import { pidListeningOn } from '../cpu.ts';
import { childrenOf, fmt, markdownTable, median, parseFlags, processCpuSeconds } from './harness.ts';
import { seededRandom } from '../../tests/helpers/seeded-random.ts';

const { flags, words } = parseFlags(process.argv.slice(2), {
  rounds: '3',
  intervals: '150',
  'agent-intervals': '300',
  steps: '50',
  rate: '2000',
  'total-rate': '0',
  distinct: '10',
});
const parts = words.length > 0 ? words : ['agent', 'pglite', 'postgres'];
const rounds = Number(flags.rounds);
const intervals = Number(flags.intervals);
const agentIntervals = Number(flags['agent-intervals']);
const manySteps = Number(flags.steps);
/** Requests per step and second; with `--total-rate`, that many per second split over the steps (the same load for 1 and many). */
const totalRate = Number(flags['total-rate']);
const rateOf = (steps: number) => (totalRate > 0 ? Math.round(totalRate / steps) : Number(flags.rate));
const rateText = totalRate > 0 ? `${totalRate} requests a second over the steps` : `${flags.rate} requests per step and second`;
const distinct = Number(flags.distinct);
if (intervals > 600 || agentIntervals > 3000) throw new Error('keep runs short on a shared machine: --intervals ≤ 600, --agent-intervals ≤ 3000');

const prng = (seed: number) => seededRandom(seed).next;

/** A fixed minute-aligned start (the digests hold times): the runs' intervals follow it one second apart. */
const start = Date.UTC(2026, 0, 1);

/** `distinct` seconds of the engine's output for a test of `steps` steps. */
function engineSeconds(steps: number): string[][] {
  const names = Array.from({ length: steps }, (_, i) => `step ${String(i + 1).padStart(2, '0')}`);
  const stats = new RunStats(names);
  const random = prng(steps * 7919);
  const seconds: string[][] = [];
  for (let s = 0; s < distinct; s++) {
    for (let slot = 0; slot < steps; slot++) {
      const rate = rateOf(steps);
      for (let r = 0; r < rate; r++) {
        const at = start + s * 1000 + (r * 1000) / rate;
        const latencyMs = 0.2 * Math.pow(100, random());
        const failed = slot % 5 === 0 && random() < 0.01;
        stats.recordAt(slot, latencyMs, failed ? { kind: 'status', code: '500', message: 'status 500, expected below 400' } : null, at);
      }
    }
    seconds.push(stats.takeLines(10));
  }
  return seconds;
}

async function digest(text: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...hash.slice(0, 8)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

const stepCounts = [1, manySteps];
const outputs = new Map(stepCounts.map((steps) => [steps, engineSeconds(steps)]));

/** The agent's work for `count` intervals of a test of `steps` steps: CPU ms per interval, and every snapshot it made. */
function agentRun(steps: number, count: number): { msPerInterval: number; snapshots: MetricSnapshot[]; bytes: number } {
  const seconds = outputs.get(steps)!;
  let now = start;
  const clock: Clock = { now: () => now, after: () => () => {}, every: () => () => {} };
  const parser = createHttpParser(() => now);
  const progress = startProgressReporter({ clock, quietMs: 2000, emit: () => {} });
  const snapshots: MetricSnapshot[] = [];
  let bytes = 0;
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    now = start + (i + 1) * 1000;
    for (const line of seconds[i % seconds.length]!) parser.onOutput('out', line);
    const snapshot = parser.takeInterval(now);
    if (!snapshot) continue;
    bytes += JSON.stringify({ type: 'metrics', assignmentId: 'a', snapshot }).length;
    progress.absorb(snapshot);
    if (i < seconds.length) snapshots.push(snapshot);
  }
  const ms = cpuMs(before);
  progress.stop();
  return { msPerInterval: ms / count, snapshots, bytes: bytes / count };
}

const output: string[] = [];
const say = (line: string) => {
  output.push(line);
  console.log(line);
};

/** One agent interval of each test (the server replays these, re-timed one second apart). */
const agentSnapshots = new Map<number, MetricSnapshot[]>();
{
  const results = new Map<number, number[]>(stepCounts.map((steps) => [steps, []]));
  const sizes = new Map<number, number>();
  // Warm-up: the JIT's first pass is no part of a steady run.
  for (const steps of stepCounts) agentRun(steps, Math.min(50, agentIntervals));
  for (let round = 0; round < (parts.includes('agent') ? rounds : 1); round++) {
    for (const steps of round % 2 === 0 ? stepCounts : [...stepCounts].reverse()) {
      const run = agentRun(steps, parts.includes('agent') ? agentIntervals : distinct);
      results.get(steps)!.push(run.msPerInterval);
      agentSnapshots.set(steps, run.snapshots);
      sizes.set(steps, run.bytes);
    }
  }
  if (parts.includes('agent')) {
    const rows = [];
    for (const steps of stepCounts) {
      const d = await digest(JSON.stringify(agentSnapshots.get(steps)));
      rows.push([steps, results.get(steps)!.map((ms) => fmt(ms, 3)).join(', '), fmt(median(results.get(steps)!), 3), Math.round(sizes.get(steps)!), d]);
    }
    say(`\nagent: ${agentIntervals} intervals a round, ${rateText}`);
    say(markdownTable(['steps', 'CPU ms / interval (rounds)', 'median', 'message bytes', 'snapshots digest'], rows));
  }
}

const agentMessage = TypeCompiler.Compile(AgentMessage);

for (const mode of parts.filter((part) => part === 'pglite' || part === 'postgres')) {
  const postgres = mode === 'postgres' ? await startPostgresServer() : null;
  if (mode === 'postgres' && !postgres) {
    say(`postgres: skipped, ${POSTGRES_SKIP_MESSAGE}`);
    continue;
  }
  const ts = await startTestService({ port: await freePort(), database: postgres ? postgres.url : 'disk' });
  try {
    const postmaster = postgres ? pidListeningOn(Number(new URL(postgres.url).port || 5432)) : null;
    const postgresCpuMs = () => (postmaster === null ? null : [postmaster, ...childrenOf(postmaster)].reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0) * 1000);
    const { token } = await ts.apiToken(`bench-${mode}`);
    const machineId = '00000000-0000-4000-8000-000000000001';
    const results = new Map<number, { server: number[]; postgres: number[]; digests: Set<string> }>(
      stepCounts.map((steps) => [steps, { server: [], postgres: [], digests: new Set() }]),
    );
    // A warm-up run of each (not counted): the first transactions pay for the JIT and the database's caches.
    for (let round = -1; round < rounds; round++) {
      for (const steps of round % 2 === 0 ? stepCounts : [...stepCounts].reverse()) {
        const run = await createMetricRun(ts, token, `interval-cpu-${mode}-${steps}-${round}`);
        const template = agentSnapshots.get(steps)!;
        const count = round < 0 ? 20 : intervals;
        // Serialised before the clock starts: the message as the agent sent it, re-timed one second apart.
        const messages = Array.from({ length: count }, (_, i) => {
          const snapshot = template[i % template.length]!;
          const startedAt = start + i * 1000;
          return JSON.stringify({ type: 'metrics', assignmentId: 'a', snapshot: { ...snapshot, startedAt, endedAt: startedAt + 999 } });
        });
        const pgBefore = postgresCpuMs();
        const before = process.cpuUsage();
        for (const raw of messages) {
          const message = JSON.parse(raw) as unknown;
          if (!agentMessage.Check(message)) throw new Error('the protocol refused a message');
          const snapshot = (message as { snapshot: MetricSnapshot }).snapshot;
          const problem = snapshotProblem(snapshot);
          if (problem) throw new Error(`snapshotProblem: ${problem}`);
          await storeMetricInterval(ts.service.database, { ...run, machineId }, snapshot);
        }
        const serverMs = cpuMs(before);
        const pgAfter = postgresCpuMs();
        if (round < 0) continue;
        const result = results.get(steps)!;
        result.server.push(serverMs / count);
        if (pgBefore !== null && pgAfter !== null) result.postgres.push((pgAfter - pgBefore) / count);
        const sql = sqlOf(ts.service.database);
        const answers = JSON.stringify([
          await readRunEndpoints(sql, run.workspaceId, run.taskId, { timeline: true }),
          await readRunErrors(sql, run.workspaceId, run.taskId),
        ]).replaceAll(run.taskId, 'TASK');
        result.digests.add(await digest(answers));
      }
    }
    say(`\n${mode}: ${intervals} intervals a run (one second apart), ${rateText}`);
    say(
      markdownTable(
        ['steps', 'server CPU ms / interval (rounds)', 'median', ...(postgres ? ['postgres CPU ms / interval (rounds)', 'median'] : []), 'answers digest'],
        stepCounts.map((steps) => {
          const r = results.get(steps)!;
          return [
            steps,
            r.server.map((ms) => fmt(ms, 2)).join(', '),
            fmt(median(r.server), 2),
            ...(postgres ? [r.postgres.map((ms) => fmt(ms, 2)).join(', '), fmt(median(r.postgres), 2)] : []),
            [...r.digests].join(' '),
          ];
        }),
      ),
    );
  } finally {
    await ts.stop();
    await postgres?.stop();
  }
}
