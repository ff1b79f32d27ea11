/**
 * Backlog: POST /tasks -> `assign` latency for a workspace with a free machine while 1,000 tasks wait in 100 other
 * workspaces (their one machine busy), against the same with no backlog; then how fast the backlog drains once every
 * machine is free. On PostgreSQL (the workspaces are made in SQL, which needs DATABASE_URL).
 *
 *   ./node_modules/.bin/bun bench/backlog.ts [--workspaces 100] [--per-workspace 10] [--runs 100] [--rest 10] [--timeout 900] [--profile DIR]
 *       [--quiet-wait 60]
 *
 * Each workspace (plan enterprise) gets its own agent token, client token, one test (`custom`) and one simulated agent
 * (bench/runs/sim-agents.ts). The backlog agents take their first run and hold it (`started`, never `finished`), so the
 * workspace's further tasks stay pending; on release they finish it and answer every later run at once.
 * Before each measured case and the drain, it waits up to --quiet-wait seconds for the rest of the shared machine to be
 * quiet (0: do not wait) and reports the CPU other processes used meanwhile.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { waitForQuietMachine } from './cpu.ts';
import { machineDescription } from './machine.ts';
import { cpuMeter, epochMs, machineMeter, fmt, fmtInt, markdownTable, parseFlags, percentile, type RunsService, startRunsService } from './runs/harness.ts';
import { summarizeWindow, windowMarkdown } from './runs/profile-window.ts';
import { type FromWorker, startSimWorker } from './runs/sim-agents.ts';

const { flags } = parseFlags(Bun.argv.slice(2), {
  workspaces: '100',
  'per-workspace': '10',
  runs: '100',
  rest: '10',
  timeout: '900',
  profile: '',
  'quiet-wait': '60',
});
const quietWait = Number(flags['quiet-wait']);
const workspaceCount = Number(flags.workspaces);
const perWorkspace = Number(flags['per-workspace']);
const runCount = Number(flags.runs);
const restSeconds = Number(flags.rest);

const watchdog = setTimeout(() => {
  console.error(`backlog: gave up after ${flags.timeout} s (--timeout)`);
  process.exit(3);
}, Number(flags.timeout) * 1000);

interface Space {
  id: string;
  agentToken: string;
  clientToken: string;
  testId: string;
  hostname: string;
}

async function call<T>(url: string, token: string, path: string, init: { method?: string; json?: unknown; workspace?: string } = {}) {
  const sentAt = epochMs();
  const started = performance.now();
  const response = await fetch(`${url}/api/v1${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.workspace ? { 'x-workspace-id': init.workspace } : {}),
    },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, ms: performance.now() - started, sentAt };
}

/** Runs `work` over `items` with at most `lanes` at once. */
async function inLanes<T>(items: readonly T[], lanes: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: lanes }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
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
  const runs: RunsService = await startRunsService({ database: 'postgres', env });
  const db = new pg.Client({ connectionString: runs.service.databaseUrl! });
  await db.connect();
  const assigns = new Map<string, number>();
  const waiters = new Map<string, (at: number) => void>();
  const errors: string[] = [];
  const worker = startSimWorker((message: FromWorker) => {
    if (message.type === 'assign') {
      assigns.set(message.taskId, message.at);
      waiters.get(message.taskId)?.(message.at);
    } else if (message.type === 'error' || message.type === 'failed') {
      errors.push(`${message.hostname}: ${'message' in message ? message.message : message.reason}`);
    }
  });
  const windows: { title: string; from: number; to: number }[] = [];
  try {
    // 1. Workspaces (the backlog's and the probe's) with the bootstrap admin as owner, made in SQL.
    const admin = (await db.query<{ id: string }>(`select id from user_profiles where username = 'admin'`)).rows[0]!.id;
    const ids = Array.from({ length: workspaceCount + 1 }, () => crypto.randomUUID());
    await db.query(
      `insert into workspaces (id, name, plan, status, pending_owner_username, is_bootstrap, created_at)
       select id, 'bench ' || n, 'enterprise', 'active', null, false, now() from unnest($1::uuid[]) with ordinality as w(id, n)`,
      [ids],
    );
    await db.query(
      `insert into memberships (id, workspace_id, user_id, role, created_at) select gen_random_uuid(), id, $2, 'owner', now() from unnest($1::uuid[]) as w(id)`,
      [ids, admin],
    );
    // The service caches memberships; the access-change feed tells it the admin's changed (as a role change would).
    await db.query(`select pg_notify('loadplane_access_changes', $1)`, [JSON.stringify({ from: 'bench', change: { kind: 'user', userId: admin } })]);
    await Bun.sleep(200);
    const jwt = await runs.adminJwt();
    const spaces: Space[] = [];
    await inLanes(ids, 8, async (id) => {
      const agent = await call<{ token: string }>(runs.url, jwt, '/api-tokens', { method: 'POST', workspace: id, json: { name: 'agent', scopes: ['machines:write', 'runs:write'] } });
      const client = await call<{ token: string }>(runs.url, jwt, '/api-tokens', { method: 'POST', workspace: id, json: { name: 'client' } });
      if (agent.status !== 201 || client.status !== 201) throw new Error(`api tokens in ${id}: ${agent.status} ${client.status} ${JSON.stringify(agent.body)}`);
      const test = await call<{ id: string }>(runs.url, client.body.token, '/tests', { method: 'POST', json: { name: 'backlog probe', tool: 'custom', script: '#!/bin/sh\ntrue\n' } });
      if (test.status !== 201) throw new Error(`test in ${id}: ${test.status} ${JSON.stringify(test.body)}`);
      spaces.push({ id, agentToken: agent.body.token, clientToken: client.body.token, testId: test.body.id, hostname: `ws-${spaces.length}` });
    });
    const probe = spaces.pop()!;
    console.error(`backlog: ${spaces.length + 1} workspaces ready`);

    // 2. One agent per workspace: the backlog ones hold their first run, the probe's answers at once.
    worker.send({
      type: 'connect',
      url: runs.url,
      agents: [...spaces.map((s) => ({ hostname: s.hostname, token: s.agentToken, hold: true })), { hostname: probe.hostname, token: probe.agentToken }],
      concurrency: 16,
      heartbeatSeconds: 5,
    });
    const online = async (n: number) => {
      const deadline = performance.now() + 60_000;
      for (;;) {
        const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from machines where connection_id is not null and lease_until > now()`);
        if (rows[0]!.n >= n) return;
        if (performance.now() > deadline) throw new Error(`only ${rows[0]!.n} of ${n} machines online after 60 s`);
        await Bun.sleep(100);
      }
    };
    await online(spaces.length + 1);

    const postRun = async (space: Space) => {
      const response = await call<{ id: string }>(runs.url, space.clientToken, '/tasks', { method: 'POST', json: { testId: space.testId } });
      if (response.status !== 202) throw new Error(`POST /tasks: ${response.status} ${JSON.stringify(response.body)}`);
      return response;
    };
    const untilAssigned = async (id: string, timeoutMs: number) => {
      const at = assigns.get(id) ?? (await Promise.race([new Promise<number>((r) => waiters.set(id, r)), Bun.sleep(timeoutMs).then(() => null)]));
      waiters.delete(id);
      return at;
    };
    const untilDone = async (space: Space, id: string) => {
      const deadline = performance.now() + 10_000;
      for (;;) {
        const { body } = await call<{ status: string }>(runs.url, space.clientToken, `/tasks/${id}`);
        if (body.status === 'completed' || body.status === 'failed') return body.status;
        if (performance.now() > deadline) throw new Error(`task ${id} still ${body.status} after 10 s`);
        await Bun.sleep(5);
      }
    };
    // What else ran on the machine during a measured stretch: everything but the service, its cluster, the simulator
    // and this driver (other sessions share the 2 cores).
    const ownPids = () => [process.pid, runs.service.pid, worker.pid, ...runs.postgresPids()];
    const quietTexts: string[] = [];
    const calmDown = async (title: string) => {
      if (quietWait <= 0) return;
      const calm = await waitForQuietMachine({ maxSeconds: quietWait, excludePids: ownPids });
      quietTexts.push(`${title}: ${calm.quiet ? 'quiet' : 'NOT quiet'} after ${fmt(calm.waitedSeconds, 0)} s`);
    };
    const otherMeter = () => {
      const own = cpuMeter({ own: ownPids() });
      const whole = machineMeter();
      return () => Math.max(0, whole().processes - (own().own ?? 0));
    };
    const others: string[] = [];
    /** Sequential runs in the probe workspace: POST -> assign; each waits for the previous to complete. */
    const measure = async (title: string) => {
      const dispatch: number[] = [];
      const post: number[] = [];
      let lost = 0;
      await calmDown(title);
      const other = otherMeter();
      const from = epochMs();
      for (let i = 0; i < runCount; i++) {
        const response = await postRun(probe);
        const at = await untilAssigned(response.body.id, 10_000);
        if (at === null) {
          lost++;
          continue;
        }
        dispatch.push(at - response.sentAt);
        post.push(response.ms);
        await untilDone(probe, response.body.id);
      }
      windows.push({ title, from, to: epochMs() });
      others.push(`${title}: ${fmt(other())}%`);
      console.error(`  ${title}: p50 ${fmt(percentile(dispatch, 50))} ms, p99 ${fmt(percentile(dispatch, 99))} ms`);
      return { dispatch, post, lost, seconds: (epochMs() - from) / 1000 };
    };
    const postgresPids = runs.postgresPids();
    const rest = async (title: string) => {
      const cpu = cpuMeter({ server: runs.service.pid, postgres: postgresPids });
      const from = epochMs();
      await Bun.sleep(restSeconds * 1000);
      windows.push({ title, from, to: epochMs() });
      return cpu();
    };

    // 3. Empty backlog.
    console.error('backlog: empty');
    await measure('warm-up');
    const emptyRest = await rest('at rest, empty');
    const empty = await measure('dispatch, empty backlog');

    // 4. The backlog: every backlog machine takes one run and holds it, then 10 tasks each wait.
    console.error('backlog: filling');
    const held = await Promise.all(spaces.map((s) => postRun(s)));
    for (const h of held) if ((await untilAssigned(h.body.id, 30_000)) === null) throw new Error(`held run ${h.body.id} was never assigned`);
    const backlogIds: string[] = [];
    const fillPosts: number[] = [];
    const fillFrom = performance.now();
    const jobs = spaces.flatMap((s) => Array.from({ length: perWorkspace }, () => s));
    await inLanes(jobs, 8, async (space) => {
      const response = await postRun(space);
      fillPosts.push(response.ms);
      backlogIds.push(response.body.id);
    });
    const fillSeconds = (performance.now() - fillFrom) / 1000;
    const pending = (await db.query<{ n: number }>(`select count(*)::int as n from tasks where status = 'pending'`)).rows[0]!.n;
    console.error(`  ${pending} pending (POSTs took ${fmt(fillSeconds)} s)`);
    // The query a dispatch pass starts with (copied from core/services/runs/dispatcher.ts), timed by PostgreSQL.
    const plan = await db.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) select r.id, r.workspace_id, r.requested_machine_ids, te.tool from (
         select t.id, t.workspace_id, t.test_id, t.requested_machine_ids, t.created_at,
                row_number() over (partition by t.workspace_id order by t.created_at, t.id) as rank
         from tasks t where t.status = 'pending') r
       left join tests te on te.id = r.test_id
       where r.rank <= 20 order by r.rank, r.created_at, r.id limit 1000`,
    );
    const backlogRest = await rest('at rest, 1,000 pending');
    const backlog = await measure('dispatch, 1,000 pending');

    // 5. Drain: every backlog machine finishes its held run and answers every later one at once.
    console.error('backlog: draining');
    await calmDown('drain');
    const drainOther = otherMeter();
    const drainFrom = epochMs();
    const drainCpu = cpuMeter({ server: runs.service.pid, postgres: postgresPids });
    worker.send({ type: 'release' });
    const drainDeadline = performance.now() + 300_000;
    let lastAssignAt = 0;
    for (;;) {
      const done = backlogIds.filter((id) => assigns.has(id));
      if (done.length === backlogIds.length) {
        lastAssignAt = Math.max(...done.map((id) => assigns.get(id)!));
        break;
      }
      if (performance.now() > drainDeadline) throw new Error(`drain: ${done.length} of ${backlogIds.length} assigned after 300 s`);
      await Bun.sleep(20);
    }
    for (;;) {
      const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from tasks where status in ('pending', 'running')`);
      if (rows[0]!.n === 0) break;
      if (performance.now() > drainDeadline) throw new Error(`drain: ${rows[0]!.n} tasks still pending or running after 300 s`);
      await Bun.sleep(20);
    }
    const settledAt = epochMs();
    const drainUsage = drainCpu();
    others.push(`drain: ${fmt(drainOther())}%`);
    windows.push({ title: 'drain', from: drainFrom, to: settledAt });
    const statuses = (await db.query<{ status: string; n: number }>(`select status, count(*)::int as n from tasks group by status order by status`)).rows;

    // 6. Report.
    const assignSeconds = (lastAssignAt - drainFrom) / 1000;
    const settleSeconds = (settledAt - drainFrom) / 1000;
    console.log(`### backlog (postgres): ${fmtInt(backlogIds.length)} pending tasks in ${spaces.length} workspaces\n`);
    console.log(machine.markdown);
    console.log(`\nCommand: \`bash bench/run.sh backlog ${Bun.argv.slice(2).join(' ')}\`. ${runCount} sequential runs per case in a workspace of its own with one free simulated agent.\n`);
    const row = (name: string, r: Awaited<ReturnType<typeof measure>>, cpu: Record<string, number | null>) => [
      name,
      `${r.dispatch.length}${r.lost ? ` (${r.lost} lost)` : ''}`,
      `${fmt(percentile(r.dispatch, 50))} ms`,
      `${fmt(percentile(r.dispatch, 99))} ms`,
      `${fmt(Math.max(...r.dispatch))} ms`,
      `${fmt(percentile(r.post, 50))} ms`,
      `${fmt(cpu.server ?? NaN)}% / ${fmt(cpu.postgres ?? NaN)}%`,
    ];
    console.log(
      markdownTable(
        ['backlog', 'runs', 'POST -> assign p50', 'p99', 'max', 'POST response p50', `at rest (${restSeconds} s): server / postgres CPU`],
        [
          row('empty', empty, emptyRest),
          row(`${fmtInt(backlogIds.length)} pending in ${spaces.length} workspaces`, backlog, backlogRest),
          [
            'ratio',
            '',
            `${fmt(percentile(backlog.dispatch, 50) / percentile(empty.dispatch, 50), 2)}x`,
            `${fmt(percentile(backlog.dispatch, 99) / percentile(empty.dispatch, 99), 2)}x`,
            '',
            `${fmt(percentile(backlog.post, 50) / percentile(empty.post, 50), 2)}x`,
            '',
          ],
        ],
      ),
    );
    console.log('');
    console.log(
      markdownTable(
        ['drain', 'value'],
        [
          ['tasks', fmtInt(backlogIds.length)],
          ['release -> last assign', `${fmt(assignSeconds, 2)} s (${fmtInt(backlogIds.length / assignSeconds)} tasks/s)`],
          ['release -> nothing pending or running', `${fmt(settleSeconds, 2)} s (${fmtInt((backlogIds.length + spaces.length) / settleSeconds)} tasks/s incl. the ${spaces.length} held)`],
          ['server / postgres CPU while draining', `${fmt(drainUsage.server ?? NaN)}% / ${fmt(drainUsage.postgres ?? NaN)}%`],
          ['reference: sequential runs, empty backlog (POST, assign, poll until completed)', `${fmt(empty.dispatch.length / empty.seconds, 1)} runs/s`],
          [`filling: ${fmtInt(backlogIds.length)} POST /tasks, 8 at once`, `${fmt(fillSeconds, 1)} s, POST p50 ${fmt(percentile(fillPosts, 50))} ms, p99 ${fmt(percentile(fillPosts, 99))} ms`],
          ['final task statuses', statuses.map((s) => `${s.status} ${s.n}`).join(', ')],
        ],
      ),
    );
    console.log(`\nOther processes' CPU (% of one core) during each measured stretch: ${others.join('; ')}. Quiet-machine wait: ${quietTexts.join('; ') || 'not used'}.`);
    console.log(`\nPending before the measurement (SQL): ${pending}. Protocol errors: ${errors.length}${errors[0] ? ` (first: ${errors[0]})` : ''}.`);
    console.log(`\nThe dispatcher's candidate query with the backlog in place (EXPLAIN ANALYZE):\n\n\`\`\`\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}\n\`\`\``);
  } finally {
    await worker.stop();
    await db.end();
    await runs.stop();
    clearTimeout(watchdog);
  }
  // The service writes its profile when it exits.
  if (profileDir) {
    const file = readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile')).sort().pop();
    if (file) for (const w of windows) console.log(`\n${windowMarkdown(w.title, summarizeWindow(join(profileDir, file), w.from, w.to, 12))}`);
  }
}

await main();
