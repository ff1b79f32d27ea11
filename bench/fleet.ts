/**
 * Fleet: thousands of simulated agents (real protocol, real WebSockets, heartbeat every 5 s) on ONE service process;
 * per stage: time to connect, server CPU and RSS at rest, and POST /tasks -> `assign` latency on a random idle agent.
 *
 *   ./node_modules/.bin/bun bench/fleet.ts [postgres|pglite] [--agents 10000] [--stages 100,1000] [--workers 2]
 *       [--runs 200] [--rest 30] [--concurrency 64] [--timeout 1200] [--profile DIR] [--quiet-wait 60]
 *
 * One workspace (the bootstrap one, plan enterprise: no machine limit), one agent token for every simulated agent
 * (machines are keyed by hostname). Each stage connects more agents up to its count; the last stage is --agents.
 * Before the rest measurement and before the dispatch runs of each stage, the benchmark waits up to --quiet-wait
 * seconds for the rest of the shared machine to be quiet (0: do not wait), and reports what else ran meanwhile.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { waitForQuietMachine } from './cpu.ts';
import { machineDescription } from './machine.ts';
import {
  cpuMeter,
  type DatabaseMode,
  epochMs,
  fmt,
  fmtInt,
  machineMeter,
  markdownTable,
  parseFlags,
  percentile,
  type RunsService,
  startRunsService,
  createTest,
} from './runs/harness.ts';
import { summarizeWindow, windowMarkdown } from './runs/profile-window.ts';
import { type FromWorker, memoryMiB, openFds, type SimWorker, startSimWorker } from './runs/sim-agents.ts';

const { flags, words } = parseFlags(Bun.argv.slice(2), {
  agents: '10000',
  stages: '100,1000',
  workers: '2',
  runs: '200',
  rest: '30',
  concurrency: '64',
  timeout: '1200',
  profile: '',
  'quiet-wait': '60',
});
const quietWait = Number(flags['quiet-wait']);
const database = (words[0] ?? 'postgres') as DatabaseMode;
if (database !== 'pglite' && database !== 'postgres') throw new Error(`unknown database ${database}`);
const total = Number(flags.agents);
const stages = [...new Set([...flags.stages.split(',').filter(Boolean).map(Number), total])].filter((n) => n > 0 && n <= total).sort((a, b) => a - b);
const workerCount = Math.max(1, Number(flags.workers));
const restSeconds = Number(flags.rest);
const runCount = Number(flags.runs);

// Every run is bounded: past --timeout the whole benchmark gives up.
const watchdog = setTimeout(() => {
  console.error(`fleet: gave up after ${flags.timeout} s (--timeout)`);
  process.exit(3);
}, Number(flags.timeout) * 1000);

interface StageResult {
  agents: number;
  connectMs: number;
  failed: number;
  cpu: Record<string, number | null>;
  softirq: number;
  /** CPU of every other process on the machine (other sessions' work), at rest and during the dispatch runs. */
  otherRest: number;
  otherDispatch: number;
  quiet: string;
  rss: { rss: number; peak: number } | null;
  fds: number | null;
  dispatch: number[];
  post: number[];
  lost: number;
}

/**
 * EXPLAIN ANALYZE of what a dispatch pass and the sweep run with the whole fleet connected (copied from
 * core/services/runs/dispatcher.ts, agent-commands.ts and agent-presence.ts): the pending candidates, the one machine a
 * task names, the resend of unacknowledged commands and the presence renewal (rolled back).
 */
async function explainQueries(databaseUrl: string, machineId: string): Promise<{ title: string; plan: string }[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const explain = async (title: string, text: string, values: unknown[]) => {
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${text}`, values);
    return { title, plan: rows.map((r) => r['QUERY PLAN']).join('\n') };
  };
  try {
    const replica = await db.query<{ replica_id: string }>('select replica_id from machines where replica_id is not null group by replica_id order by count(*) desc limit 1');
    const replicaId = replica.rows[0]?.replica_id ?? '';
    const machineColumns = `m.id, m.workspace_id, m.hostname, m.tools,
      (m.connection_id is not null and m.lease_until > now()) as connected,
      (m.connection_id is not null and m.lease_until > now() and not exists (
         select 1 from task_assignments a where a.machine_id = m.id and a.status in ('pending', 'running', 'cancelling'))) as free`;
    const plans = [
      await explain(
        'dispatcher: pending candidates',
        `select r.id, r.workspace_id, r.requested_machine_ids, te.tool from (
           select t.id, t.workspace_id, t.test_id, t.requested_machine_ids, t.created_at,
                  row_number() over (partition by t.workspace_id order by t.created_at, t.id) as rank
           from tasks t where t.status = 'pending') r
         left join tests te on te.id = r.test_id
         where r.rank <= $1 order by r.rank, r.created_at, r.id limit $2`,
        [20, 1000],
      ),
      await explain('dispatcher: the machine a task names', `select ${machineColumns}, null as need from machines m where m.id in ($1)`, [machineId]),
      await explain(
        'sweep: resend unacknowledged commands (every 1 s)',
        `select a.id, a.machine_id, a.status from task_assignments a join machines m on m.id = a.machine_id
         where m.replica_id = $1 and a.status in ('pending', 'cancelling')
           and (a.sent_at is null or a.sent_at < now() - make_interval(secs => $2))`,
        [replicaId, 5],
      ),
    ];
    await db.query('begin');
    try {
      plans.push(
        await explain(
          'presence renewal of every socket this replica holds (rolled back)',
          `with renewed as (update machines set lease_until = now() + make_interval(secs => $1), last_seen_at = now()
             where replica_id = $2 and connection_id is not null returning 1)
           select count(*)::int as renewed from renewed`,
          [15, replicaId],
        ),
      );
    } finally {
      await db.query('rollback');
    }
    return plans;
  } finally {
    await db.end();
  }
}

async function main() {
  const machine = machineDescription();
  const env: Record<string, string> = {};
  let profileDir = '';
  if (flags.profile) {
    profileDir = resolve(flags.profile);
    mkdirSync(profileDir, { recursive: true });
    env.BUN_OPTIONS = `--cpu-prof --cpu-prof-dir=${profileDir}`;
  }
  const runs: RunsService = await startRunsService({ database, env });
  const connected = new Map<string, string>(); // hostname -> machine id
  const failures: string[] = [];
  let closed = 0;
  const assigns = new Map<string, FromWorker & { type: 'assign' }>();
  const waiters = new Map<string, (at: number) => void>();
  const errors: string[] = [];
  const onMessage = (message: FromWorker) => {
    if (message.type === 'connected') connected.set(message.hostname, message.machineId);
    else if (message.type === 'failed') failures.push(`${message.hostname}: ${message.reason}`);
    else if (message.type === 'closed') closed++;
    else if (message.type === 'error') errors.push(`${message.hostname}: ${message.message}`);
    else if (message.type === 'assign') {
      assigns.set(message.taskId, message);
      waiters.get(message.taskId)?.(message.at);
    }
  };
  const workers: SimWorker[] = Array.from({ length: workerCount }, () => startSimWorker(onMessage));
  // The benchmark's own processes: the quiet-machine wait counts everything else only.
  const ownPids = () => [process.pid, runs.service.pid, ...workers.map((w) => w.pid), ...runs.postgresPids()];
  const results: StageResult[] = [];
  let closedDuringRun = 0;
  let explained: { title: string; plan: string }[] = [];
  const windows: { title: string; from: number; to: number }[] = [];
  try {
    const testId = await createTest(runs, 'fleet probe', 'custom', '#!/bin/sh\ntrue\n');
    let next = 0;
    for (const stage of stages) {
      // Connect agents next..stage-1, spread over the workers.
      const adding = stage - next;
      console.error(`fleet: stage ${stage}: connecting ${adding} agents`);
      const target = connected.size + adding;
      const failedBefore = failures.length;
      const started = performance.now();
      const perWorker: { hostname: string; token: string }[][] = workers.map(() => []);
      for (let i = next; i < stage; i++) perWorker[i % workerCount]!.push({ hostname: `sim-${String(i).padStart(5, '0')}`, token: runs.agentToken });
      workers.forEach((worker, i) => worker.send({ type: 'connect', url: runs.url, agents: perWorker[i]!, concurrency: Math.ceil(Number(flags.concurrency) / workerCount), heartbeatSeconds: 5 }));
      let lastLog = performance.now();
      while (connected.size + (failures.length - failedBefore) < target) {
        await Bun.sleep(50);
        if (performance.now() - lastLog > 5000) {
          lastLog = performance.now();
          console.error(`  ${connected.size} connected, ${failures.length} failed, server fds ${openFds(runs.service.pid)}`);
        }
        if (performance.now() - started > 600_000) throw new Error(`stage ${stage}: only ${connected.size} agents connected after 600 s`);
      }
      const connectMs = performance.now() - started;
      next = stage;
      console.error(`  ${connected.size} connected in ${fmt(connectMs / 1000)} s (${failures.length - failedBefore} failed)`);
      if (failures.length > failedBefore) console.error(`  first failures: ${failures.slice(failedBefore, failedBefore + 3).join('; ')}`);

      // At rest: two heartbeat intervals to let the ramp's work drain, then CPU over --rest seconds.
      await Bun.sleep(10_000);
      const calm = quietWait > 0 ? await waitForQuietMachine({ maxSeconds: quietWait, excludePids: ownPids }) : null;
      const postgresPids = runs.postgresPids();
      const cpu = cpuMeter({ server: runs.service.pid, postgres: database === 'postgres' ? postgresPids : null, agents: workers.map((w) => w.pid), driver: process.pid });
      const whole = machineMeter();
      const restFrom = epochMs();
      await Bun.sleep(restSeconds * 1000);
      windows.push({ title: `at rest, ${connected.size} agents`, from: restFrom, to: epochMs() });
      const usage = cpu();
      const machineUse = whole();
      const softirq = machineUse.softirq;
      const otherRest = Math.max(0, machineUse.processes - (usage.server ?? 0) - (usage.postgres ?? 0) - (usage.agents ?? 0) - (usage.driver ?? 0));
      const rss = memoryMiB(runs.service.pid);
      const fds = openFds(runs.service.pid);
      console.error(`  at rest: server ${fmt(usage.server ?? NaN)}%, postgres ${fmt(usage.postgres ?? NaN)}%, rss ${fmt(rss?.rss ?? NaN)} MiB`);

      // Dispatch: POST /tasks on a random idle agent's machine; the agent answers started + finished at once.
      const machineIds = [...connected.values()];
      const dispatch: number[] = [];
      const post: number[] = [];
      let lost = 0;
      const calmDispatch = quietWait > 0 ? await waitForQuietMachine({ maxSeconds: quietWait, excludePids: ownPids }) : null;
      const dispatchCpu = cpuMeter({ server: runs.service.pid, postgres: database === 'postgres' ? runs.postgresPids() : null, agents: workers.map((w) => w.pid), driver: process.pid });
      const dispatchWhole = machineMeter();
      const dispatchFrom = epochMs();
      for (let i = 0; i < runCount; i++) {
        const machineId = machineIds[Math.floor(Math.random() * machineIds.length)]!;
        const sent = runs.api<{ id: string }>('/tasks', { method: 'POST', json: { testId, machineIds: [machineId] } });
        const response = await sent;
        if (response.status !== 202) throw new Error(`POST /tasks: ${response.status} ${JSON.stringify(response.body)}`);
        const id = response.body.id;
        const at = assigns.get(id)?.at ?? (await Promise.race([new Promise<number>((resolveAt) => waiters.set(id, resolveAt)), Bun.sleep(10_000).then(() => null)]));
        waiters.delete(id);
        if (at === null) {
          lost++;
          continue;
        }
        dispatch.push(at - response.sentAt);
        post.push(response.ms);
        // A short pause: the previous machine's `finished` lands before the next POST (runs are one at a time).
        await Bun.sleep(20);
      }
      windows.push({ title: `dispatch, ${connected.size} agents`, from: dispatchFrom, to: epochMs() });
      const dispatchUse = dispatchCpu();
      const otherDispatch = Math.max(0, dispatchWhole().processes - (dispatchUse.server ?? 0) - (dispatchUse.postgres ?? 0) - (dispatchUse.agents ?? 0) - (dispatchUse.driver ?? 0));
      const quietText = (q: Awaited<ReturnType<typeof waitForQuietMachine>> | null) => (q ? `${q.quiet ? 'yes' : 'NO'} (${fmt(q.waitedSeconds, 0)} s)` : 'not waited');
      console.error(`  dispatch p50 ${fmt(percentile(dispatch, 50))} ms, p99 ${fmt(percentile(dispatch, 99))} ms${lost ? `, ${lost} never assigned` : ''}`);
      if (stage === total && runs.service.databaseUrl) explained = await explainQueries(runs.service.databaseUrl, machineIds[0]!);
      results.push({
        agents: connected.size,
        connectMs,
        failed: failures.length,
        cpu: usage,
        softirq,
        otherRest,
        otherDispatch,
        quiet: `rest ${quietText(calm)}, dispatch ${quietText(calmDispatch)}`,
        rss,
        fds,
        dispatch,
        post,
        lost,
      });
    }
  } finally {
    closedDuringRun = closed;
    await Promise.all(workers.map((w) => w.stop()));
    await runs.stop();
    clearTimeout(watchdog);
  }

  const first = results[0];
  console.log(`### fleet (${database}), ${fmtInt(total)} agents, ${workerCount} simulator processes\n`);
  console.log(machine.markdown);
  console.log(
    `\nCommand: \`bash bench/run.sh fleet ${Bun.argv.slice(2).join(' ')}\`. Heartbeat every 5 s per agent; CPU in % of one core over ${restSeconds} s at rest.\n`,
  );
  console.log(
    markdownTable(
      ['agents', 'connect (this stage)', 'hellos/s', 'server CPU at rest', 'postgres CPU', 'simulators CPU', 'softirq', 'other processes', 'server RSS (peak)', 'server fds'],
      results.map((r, i) => {
        const added = r.agents - (i > 0 ? results[i - 1]!.agents : 0);
        return [
          fmtInt(r.agents),
          `${fmt(r.connectMs / 1000, 1)} s`,
          fmtInt(added / (r.connectMs / 1000)),
          `${fmt(r.cpu.server ?? NaN)}%`,
          r.cpu.postgres === null ? '–' : `${fmt(r.cpu.postgres ?? NaN)}%`,
          `${fmt(r.cpu.agents ?? NaN)}%`,
          `${fmt(r.softirq)}%`,
          `${fmt(r.otherRest)}%`,
          `${fmtInt(r.rss?.rss ?? NaN)} MiB (${fmtInt(r.rss?.peak ?? NaN)})`,
          fmtInt(r.fds ?? NaN),
        ];
      }),
    ),
  );
  console.log('');
  console.log(
    markdownTable(
      ['agents', 'runs', 'POST -> assign p50', 'p99', 'max', 'POST response p50', 'p99 vs first stage', 'other processes during the runs', 'machine quiet before (waited)'],
      results.map((r) => [
        fmtInt(r.agents),
        `${r.dispatch.length}${r.lost ? ` (${r.lost} lost)` : ''}`,
        `${fmt(percentile(r.dispatch, 50))} ms`,
        `${fmt(percentile(r.dispatch, 99))} ms`,
        `${fmt(Math.max(...r.dispatch))} ms`,
        `${fmt(percentile(r.post, 50))} ms`,
        first ? `${fmt(percentile(r.dispatch, 99) / percentile(first.dispatch, 99), 2)}x` : '–',
        `${fmt(r.otherDispatch)}%`,
        r.quiet,
      ]),
    ),
  );
  console.log(`\nSockets closed by the server during the run: ${closedDuringRun}; connect failures: ${failures.length}; protocol errors: ${errors.length}${errors[0] ? ` (first: ${errors[0]})` : ''}`);
  for (const { title, plan } of explained) console.log(`\nWith all agents connected, EXPLAIN ANALYZE of ${title}:\n\n\`\`\`\n${plan}\n\`\`\``);
  if (profileDir) {
    const file = readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile')).sort().pop();
    if (file) for (const w of windows) console.log(`\n${windowMarkdown(w.title, summarizeWindow(join(profileDir, file), w.from, w.to, 12))}`);
  }
}

await main();
