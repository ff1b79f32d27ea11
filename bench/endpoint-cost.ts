/**
 * Per-endpoint cost: the built-in `http` tool through a real agent against a loopback target, a test of 1 step vs the
 * same test with 50 steps (50 distinct names, the same URL), fixed VUs and duration, the two alternating every round
 * (1 → 50, then 50 → 1, ...) so load from other work on the machine falls on both alike.
 *
 * - The service runs in this process (tests/helpers/test-service.ts, listening on loopback; PGlite on disk as `npm
 *   start` keeps it, or a fresh database on a throwaway PostgreSQL), so `process.cpuUsage()` over a run is the
 *   server's CPU (this driver only polls the task's record every 250 ms meanwhile). With PostgreSQL, the CPU of the
 *   cluster's own processes (its postmaster and backends, from /proc) is reported beside it.
 * - The agent is a real `loadplane agent` process (tests/helpers/agent-process.ts) and the target a process of its own
 *   (bench/runs/http-target.ts) that counts what it answers: requests/s is the target's count over its first to last
 *   request.
 * - Stored intervals: the run's rows in task_metric_points (one per interval the agent sent); endpoint rows: the run's
 *   rows in task_endpoint_minutes.
 *
 * Prints per run the target's requests/s, the server's CPU and its CPU per stored interval, then per round the ratios
 * 50 steps / 1 step and their medians.
 * Run: ./node_modules/.bin/bun bench/endpoint-cost.ts pglite postgres [--rounds 3 --vus 10 --duration 8 --quiet 20]
 */
import { freePort } from '../tests/helpers/service-process.ts';
import { startAgentProcess } from '../tests/helpers/agent-process.ts';
import { agentToken } from '../tests/helpers/service-with-agent.ts';
import { POSTGRES_SKIP_MESSAGE, startPostgresServer } from '../tests/helpers/postgres-server.ts';
import { startTestService } from '../tests/helpers/test-service.ts';
import { sqlOf } from '../core/services/sql.ts';
import { pidListeningOn, waitForQuietMachine } from './cpu.ts';
import { startCountingTarget } from './runs/counting-target.ts';
import { childrenOf, fmt, fmtInt, markdownTable, median, parseFlags, processCpuSeconds } from './runs/harness.ts';

const { flags, words } = parseFlags(process.argv.slice(2), { rounds: '3', vus: '10', duration: '8', steps: '50', quiet: '20' });
const modes = (words.length > 0 ? words : ['pglite', 'postgres']) as ('pglite' | 'postgres')[];
const rounds = Number(flags.rounds);
const vus = Number(flags.vus);
const durationS = Number(flags.duration);
const manySteps = Number(flags.steps);
if (durationS > 15) throw new Error('keep runs short on a shared machine: --duration is at most 15 (seconds)');

const scriptOf = (targetUrl: string, steps: number) =>
  `steps:\n${Array.from({ length: steps }, (_, i) => `  - {name: "step ${String(i + 1).padStart(2, '0')}", method: GET, url: "${targetUrl}/"}`).join('\n')}\n`;

interface Result {
  steps: number;
  rate: number;
  requests: number;
  intervals: number;
  endpointRows: number;
  serverCpuS: number;
  wallS: number;
  postgresCpuS: number | null;
  agentCpuS: number | null;
  /** Server CPU ms per interval between the first and the last interval stored (the run's fixed costs left out). */
  steadyMsPerInterval: number;
  quiet: boolean;
}

const output: string[] = [];
const target = await startCountingTarget();
try {
  for (const mode of modes) {
    const postgres = mode === 'postgres' ? await startPostgresServer() : null;
    if (mode === 'postgres' && !postgres) {
      console.log(`postgres: skipped, ${POSTGRES_SKIP_MESSAGE}`);
      continue;
    }
    const ts = await startTestService({ port: await freePort(), database: postgres ? postgres.url : 'disk' });
    let agent: ReturnType<typeof startAgentProcess> | null = null;
    try {
      await ts.listen();
      const owner = await ts.apiToken(`cost-${mode}`);
      agent = startAgentProcess({ serverUrl: ts.url, token: await agentToken(ts, owner.jwt, 'agent'), hostname: `cost-${mode}` });
      await agent.registered(1, 60_000);
      const postmaster = postgres ? pidListeningOn(Number(new URL(postgres.url).port || 5432)) : null;
      const postgresCpu = () => (postmaster === null ? null : [postmaster, ...childrenOf(postmaster)].reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0));
      const api = async <T>(path: string, json?: unknown): Promise<T> => {
        const response = await ts.request(`/api/v1${path}`, json === undefined ? { token: owner.token } : { method: 'POST', token: owner.token, json });
        if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
        return (await response.json()) as T;
      };
      const config = await api<{ id: string }>('/configs', { name: `${vus} VUs for ${durationS}s`, vus, duration: `${durationS}s` });
      const tests = new Map<number, string>();
      for (const steps of [1, manySteps]) tests.set(steps, (await api<{ id: string }>('/tests', { name: `${steps} steps`, tool: 'http', script: scriptOf(target.url, steps) })).id);

      const runOnce = async (steps: number): Promise<Result> => {
        const quiet = await waitForQuietMachine({ excludePids: () => [target.pid, agent!.pid], maxSeconds: Number(flags.quiet) });
        await target.reset();
        const cpuBefore = process.cpuUsage();
        const pgBefore = postgresCpu();
        const agentBefore = processCpuSeconds(agent!.pid);
        const started = performance.now();
        const task = await api<{ id: string }>('/tasks', { testId: tests.get(steps), configId: config.id });
        let record: { status: string; error: string | null };
        // (server CPU, intervals stored) whenever the count changed: the steady cost per interval is the slope.
        const marks: { cpu: number; intervals: number }[] = [];
        for (;;) {
          record = await api<{ status: string; error: string | null }>(`/tasks/${task.id}`);
          const [now] = await sqlOf(ts.service.database).all<{ n: number }>('select count(*)::int as n from task_metric_points where task_id = ?', [task.id]);
          if (now!.n > (marks.at(-1)?.intervals ?? 0)) {
            const used = process.cpuUsage(cpuBefore);
            marks.push({ cpu: (used.user + used.system) / 1e6, intervals: now!.n });
          }
          if (['completed', 'failed', 'cancelled'].includes(record.status)) break;
          if (performance.now() - started > (durationS + 120) * 1000) throw new Error(`task ${task.id} still ${record.status}`);
          await Bun.sleep(250);
        }
        const wallS = (performance.now() - started) / 1000;
        const cpu = process.cpuUsage(cpuBefore);
        const pgAfter = postgresCpu();
        const agentAfter = processCpuSeconds(agent!.pid);
        const first = marks[0];
        const last = marks.at(-1);
        if (record.status !== 'completed') throw new Error(`${steps} steps: ${record.status} ${record.error}\n${agent!.output().slice(-2000)}`);
        const count = await target.count();
        const [stored] = await sqlOf(ts.service.database).all<{ intervals: number; rows: number }>(
          `select (select count(*)::int from task_metric_points where task_id = ?) as intervals,
                  (select count(*)::int from task_endpoint_minutes where task_id = ?) as rows`,
          [task.id, task.id],
        );
        return {
          steps,
          rate: count.requests / ((count.lastAt - count.firstAt) / 1000),
          requests: count.requests,
          intervals: stored!.intervals,
          endpointRows: stored!.rows,
          serverCpuS: (cpu.user + cpu.system) / 1e6,
          wallS,
          postgresCpuS: pgBefore === null || pgAfter === null ? null : pgAfter - pgBefore,
          agentCpuS: agentBefore === null || agentAfter === null ? null : agentAfter - agentBefore,
          steadyMsPerInterval: first && last && last.intervals > first.intervals ? ((last.cpu - first.cpu) * 1000) / (last.intervals - first.intervals) : NaN,
          quiet: quiet.quiet,
        };
      };

      // A warm-up run of each (JIT, caches, the first run's dispatch), not reported.
      for (const steps of [1, manySteps]) await runOnce(steps);
      const rows: (string | number)[][] = [];
      const rateRatios: number[] = [];
      const cpuRatios: number[] = [];
      const steadyRatios: number[] = [];
      for (let round = 1; round <= rounds; round++) {
        const order = round % 2 ? [1, manySteps] : [manySteps, 1];
        const results = new Map<number, Result>();
        for (const steps of order) {
          const r = await runOnce(steps);
          results.set(steps, r);
          const perInterval = (r.serverCpuS * 1000) / r.intervals;
          rows.push([
            mode,
            round,
            steps,
            fmtInt(r.requests),
            fmtInt(r.rate),
            r.intervals,
            r.endpointRows,
            `${fmt((r.serverCpuS / r.wallS) * 100, 0)}%`,
            fmt(perInterval, 2),
            fmt(r.steadyMsPerInterval, 2),
            r.postgresCpuS === null ? '–' : fmt((r.postgresCpuS * 1000) / r.intervals, 2),
            r.agentCpuS === null ? '–' : `${fmt((r.agentCpuS / r.wallS) * 100, 0)}%`,
            r.quiet ? 'yes' : 'no',
          ]);
          console.error(`${mode} round ${round} ${steps} steps: ${rows.at(-1)!.slice(3).join(' | ')}`);
        }
        const one = results.get(1)!;
        const many = results.get(manySteps)!;
        rateRatios.push(many.rate / one.rate);
        cpuRatios.push(many.serverCpuS / many.intervals / (one.serverCpuS / one.intervals));
        steadyRatios.push(many.steadyMsPerInterval / one.steadyMsPerInterval);
      }
      output.push(
        markdownTable(
          ['database', 'round', 'steps', 'requests (target)', 'req/s (target)', 'intervals stored', 'endpoint rows', 'server CPU, % of a core', 'server CPU ms / interval (whole run)', 'server CPU ms / interval (first to last interval)', 'postgres CPU ms / interval', 'agent CPU, % of a core', 'quiet before'],
          rows,
        ),
        '',
        markdownTable(
          ['database', `req/s ${manySteps} / 1, per round`, 'median', `server CPU per interval (whole run) ${manySteps} / 1, per round`, 'median', `server CPU per interval (first to last) ${manySteps} / 1, per round`, 'median'],
          [
            [
              mode,
              rateRatios.map((v) => fmt(v, 3)).join(', '),
              `**${fmt(median(rateRatios), 3)}**`,
              cpuRatios.map((v) => fmt(v, 2)).join(', '),
              `**${fmt(median(cpuRatios), 2)}**`,
              steadyRatios.map((v) => fmt(v, 2)).join(', '),
              `**${fmt(median(steadyRatios), 2)}**`,
            ],
          ],
        ),
        '',
      );
    } finally {
      await agent?.kill();
      await ts.stop();
      await postgres?.stop();
    }
  }
} finally {
  await target.stop();
}
console.log(`\n${output.join('\n')}`);
