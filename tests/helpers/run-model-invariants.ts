/**
 * Quiet points and the invariants checked at each of them, through the API and read-only SQL: task states against
 * the model, one active assignment per machine, derived machine status, dispatch liveness, why pending tasks wait,
 * streams, and the outbox.
 */
import { expectationOf } from './run-model-expectations.ts';
import { gateThresholds, graceSeconds, isFinal, type MachineModel, syncAgents, type TaskModel, type World } from './run-model-world.ts';

interface TaskRow {
  id: string;
  status: string;
  started_at: unknown;
  finished_at: unknown;
  error_message: string | null;
  pending_reason: string | null;
  created_at: unknown;
}
interface AssignmentRow {
  id: string;
  task_id: string;
  machine_id: string;
  status: string;
}
interface ApiMachine {
  id: string;
  hostname: string;
  status: string;
}

const activeStatuses = ['pending', 'running', 'cancelling'];
const stamp = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string).toISOString());

async function snapshot(world: World): Promise<string> {
  const tasks = await world.sql<{ id: string; status: string; log_seq: string }>('select id, status, log_seq, pending_reason from tasks order by id');
  const assignments = await world.sql<{ id: string; status: string }>('select id, status from task_assignments order by id');
  const machines = await world.sql<{ id: string; c: boolean }>('select id, (connection_id is not null and lease_until > now()) as c from machines order by id');
  const outbox = await world.sql<{ n: number }>('select count(*)::int as n from outbox');
  const agents = world.machines.map((m) => `${m.agent.isConnected()}:${m.agent.runs.size}:${m.agent.received.assigns.length}`);
  return JSON.stringify([tasks, assignments, machines, outbox, agents]);
}

/**
 * Waits until nothing changed for `quietMillis`, and until every agent away with an active assignment has been away
 * past the grace period (so its fate is decided), bounded by `maxMillis`. Returns whether it got quiet.
 */
export async function waitQuiet(world: World, quietMillis = 1_200, maxMillis = 20_000): Promise<boolean> {
  const began = Date.now();
  let last = '';
  let since = Date.now();
  for (;;) {
    const now = Date.now();
    const current = await snapshot(world);
    if (current !== last) {
      last = current;
      since = now;
    }
    // An away agent may have work the server still counts as active (the agent need not know of it).
    const awayWithWork = world.machines.filter((m) => m.awaySince !== null).map((m) => m.awaySince!);
    const settledAfter = Math.max(0, ...awayWithWork.map((t) => t + graceSeconds * 1000 + 2_500));
    if (now - since >= quietMillis && now >= settledAfter) return true;
    if (now - began > maxMillis) return false;
    await Bun.sleep(150);
  }
}

async function apiMachines(world: World): Promise<Map<string, ApiMachine>> {
  const byHostname = new Map<string, ApiMachine>();
  for (const workspace of world.workspaces) {
    const response = await world.api('/machines', { token: workspace.token });
    for (const machine of (await response.json()) as ApiMachine[]) byHostname.set(machine.hostname, machine);
  }
  return byHostname;
}

export async function checkInvariants(world: World): Promise<void> {
  syncAgents(world);
  const tasks = new Map(
    (await world.sql<TaskRow>('select id, status, started_at, finished_at, error_message, pending_reason, created_at from tasks')).map((t) => [t.id, t]),
  );
  const assignments = await world.sql<AssignmentRow>('select id, task_id, machine_id, status from task_assignments');
  const machines = await apiMachines(world);
  const activeByMachine = new Map<string, AssignmentRow[]>();
  for (const a of assignments.filter((a) => activeStatuses.includes(a.status))) activeByMachine.set(a.machine_id, [...(activeByMachine.get(a.machine_id) ?? []), a]);

  // One active assignment per machine, and no agent ever ran two at once.
  for (const [machineId, list] of activeByMachine) if (list.length > 1) world.violate(`machine ${machineId} has ${list.length} active assignments`);
  for (const machine of world.machines) for (const v of machine.agent.violations.splice(0)) world.violate(v);
  // A run a connected agent still holds (a cancel not yet confirmed included) keeps its machine taken on the server:
  // freeing it earlier would let the next run share the machine with a dying one.
  const statusOf = new Map(assignments.map((a) => [a.id, a.status]));
  for (const machine of world.machines) {
    if (!machine.agent.isConnected()) continue;
    for (const id of machine.agent.runs.keys()) {
      const status = statusOf.get(id);
      if (status && !activeStatuses.includes(status)) world.violate(`${machine.key} still runs ${id} but the server has it ${status}: the machine counts as free`);
    }
  }

  // Machine status is derived: offline iff its agent is not connected; else busy iff it has an active assignment.
  for (const machine of world.machines) {
    const listed = machines.get(machine.agent.hostname);
    if (!listed) {
      if (machine.agent.machineId()) world.violate(`${machine.key} is missing from GET /machines`);
      continue;
    }
    const hasActive = (activeByMachine.get(listed.id)?.length ?? 0) > 0;
    const expected = !machine.agent.isConnected() ? 'offline' : hasActive ? 'busy' : 'online';
    if (listed.status !== expected) world.violate(`${machine.key} is ${listed.status} in the API; expected ${expected} (connected ${machine.agent.isConnected()}, active assignment ${hasActive})`);
    if (machine.awaySince !== null && hasActive && Date.now() - machine.awaySince > (graceSeconds + 3) * 1000) {
      world.violate(`${machine.key} has been away ${Math.round((Date.now() - machine.awaySince) / 1000)} s (grace ${graceSeconds} s) and still has an active assignment`);
    }
  }

  for (const task of world.tasks.values()) {
    const row = tasks.get(task.id);
    if (!row) {
      world.violate(`task ${task.id} is gone from the database`);
      continue;
    }
    checkTask(world, task, row, assignments.filter((a) => a.task_id === task.id), machines, activeByMachine);
    checkPendingReason(world, task, row, tasks, machines);
  }
  await checkOutbox(world, tasks);
  await checkVerdicts(world);
  await checkLines(world);
}

function checkTask(world: World, task: TaskModel, row: TaskRow, own: AssignmentRow[], machines: Map<string, ApiMachine>, activeByMachine: Map<string, AssignmentRow[]>) {
  const expectation = expectationOf(task);
  if (isFinal(row.status)) {
    const now = { status: row.status, finishedAt: stamp(row.finished_at) };
    if (task.terminal && (task.terminal.status !== now.status || task.terminal.finishedAt !== now.finishedAt)) {
      world.violate(`terminal task ${task.id} changed from ${JSON.stringify(task.terminal)} to ${JSON.stringify(now)}`);
    }
    task.terminal ??= now;
    if (expectation.determined && row.status !== expectation.determined) {
      world.violate(`task ${task.id} is ${row.status} (error: ${row.error_message}); the model expected ${expectation.determined}`);
    } else if (!expectation.determined && !expectation.allowed.has(row.status)) {
      world.violate(`task ${task.id} ended ${row.status} (error: ${row.error_message}) without a cause the test gave it`);
    }
    const going = own.filter((a) => a.status === 'pending' || a.status === 'running');
    if (going.length > 0) world.violate(`terminal task ${task.id} (${row.status}) still has ${going.map((a) => a.status).join(', ')} assignments`);
    return;
  }
  if (task.terminal) world.violate(`task ${task.id} was ${task.terminal.status} and is now ${row.status}`);
  if (expectation.determined) world.violate(`task ${task.id} is still ${row.status}; the model expected ${expectation.determined}`);
  if (row.status === 'running' && !own.some((a) => activeStatuses.includes(a.status))) world.violate(`task ${task.id} is running with no active assignment`);
  if (row.status === 'pending') {
    // Waiting is legitimate only while no eligible machine (connected, idle, has the tool) is free.
    const freeFor = (hostname: string) => {
      const m = machines.get(hostname);
      const model = world.machines.find((x) => x.agent.hostname === hostname)!;
      return m !== undefined && m.status === 'online' && !activeByMachine.has(m.id) && model.agent.tools.includes(task.tool);
    };
    const candidates = task.requested ?? task.workspace.machines;
    const startable = task.requested ? candidates.every((m) => freeFor(m.agent.hostname)) : candidates.some((m) => freeFor(m.agent.hostname));
    if (startable) world.violate(`task ${task.id} (${task.tool}, ${task.requested ? task.requested.map((m) => m.key).join('+') : 'any'}) is pending while an eligible machine is free`);
  }
}

/**
 * A task that runs or ended has no pending reason; a pending one says why, as the model sees it: no machine of the
 * workspace online, none online offering the tool, a named machine offline, or busy machines with the count of the
 * workspace's older pending tasks for the same tool.
 */
function checkPendingReason(world: World, task: TaskModel, row: TaskRow, rows: Map<string, TaskRow>, machines: Map<string, ApiMachine>) {
  const reason = row.pending_reason;
  if (row.status !== 'pending') {
    if (reason !== null) world.violate(`task ${task.id} is ${row.status} but still says why it waits: ${reason}`);
    return;
  }
  const order = (r: TaskRow) => `${stamp(r.created_at)}/${r.id}`;
  const ahead = [...world.tasks.values()].filter((other) => {
    const o = rows.get(other.id);
    return o && other.workspace === task.workspace && other.tool === task.tool && o.status === 'pending' && order(o) < order(row);
  }).length;
  const aheadText = ahead > 0 ? ` (${ahead} ${ahead === 1 ? 'task' : 'tasks'} ahead)` : '';
  const online = (m: MachineModel) => (machines.get(m.agent.hostname)?.status ?? 'offline') !== 'offline';
  let expected: (r: string) => boolean;
  let want: string;
  if (task.requested) {
    const offline = task.requested.filter((m) => !online(m)).map((m) => m.agent.hostname);
    if (offline.length === 1) [want, expected] = [`machine ${offline[0]} is offline`, (r) => r === `machine ${offline[0]} is offline`];
    else if (offline.length > 1) [want, expected] = [`machines ${offline.join(' and ')} are offline`, (r) => r === `machines ${offline.join(' and ')} are offline`];
    else [want, expected] = [`waiting for machine(s) ...${aheadText}`, (r) => r.startsWith('waiting for machine') && r.endsWith(`to be free${aheadText}`)];
  } else if (!task.workspace.machines.some(online)) {
    [want, expected] = ['no machine of this workspace is online', (r) => r === 'no machine of this workspace is online'];
  } else if (!task.workspace.machines.some((m) => online(m) && m.agent.tools.includes(task.tool))) {
    [want, expected] = [`no online machine offers ${task.tool}: ...`, (r) => r.startsWith(`no online machine offers ${task.tool}: `)];
  } else {
    [want, expected] = [`waiting for a free machine${aheadText}`, (r) => r === `waiting for a free machine${aheadText}`];
  }
  if (reason === null || !expected(reason)) world.violate(`pending task ${task.id} (${task.tool}) says ${JSON.stringify(reason)}; the model expected ${JSON.stringify(want)}`);
}

async function checkOutbox(world: World, tasks: Map<string, TaskRow>) {
  const rows = await world.sql<{ task_id: string; event: string; payload: unknown }>(
    `select task_id, event, payload from outbox where event in ('run.created', 'run.started', 'run.finished') order by id`,
  );
  const started = new Set((await world.sql<{ task_id: string }>('select distinct task_id from task_assignments')).map((r) => r.task_id));
  for (const task of world.tasks.values()) {
    const row = tasks.get(task.id);
    if (!row) continue;
    const of = (event: string) => rows.filter((r) => r.task_id === task.id && r.event === event);
    if (of('run.created').length !== 1) world.violate(`task ${task.id} has ${of('run.created').length} run.created outbox rows`);
    const startedRows = of('run.started').length;
    const didStart = started.has(task.id) || row.started_at !== null;
    if (startedRows !== (didStart ? 1 : 0)) world.violate(`task ${task.id} (started: ${didStart}) has ${startedRows} run.started outbox rows`);
    const finished = of('run.finished');
    if (finished.length !== (isFinal(row.status) ? 1 : 0)) world.violate(`task ${task.id} (${row.status}) has ${finished.length} run.finished outbox rows`);
    const payload = (typeof finished[0]?.payload === 'string' ? JSON.parse(finished[0].payload) : finished[0]?.payload) as { status?: string } | undefined;
    if (finished.length === 1 && payload?.status !== row.status) world.violate(`task ${task.id} is ${row.status} but its run.finished says ${payload?.status}`);
  }
}

interface VerdictRow {
  id: string;
  status: string;
  error_message: string | null;
  error_rate: number | string | null;
  total_requests: number | string | null;
  verdict: string | null;
  threshold_results: unknown;
  payload: unknown;
}

const parsed = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/**
 * Verdicts of ended tasks: none without thresholds or for a cancelled run or one that never ran (start failed); else
 * the gate's threshold judged on the figures the task stores, a failing one failing the run with it named, and the
 * run.finished event carrying the same verdict.
 */
async function checkVerdicts(world: World) {
  const rows = await world.sql<VerdictRow>(
    `select t.id, t.status, t.error_message, t.error_rate, t.total_requests, t.verdict, t.threshold_results, o.payload
     from tasks t join outbox o on o.task_id = t.id and o.event = 'run.finished' where t.status in ('completed', 'failed', 'cancelled')`,
  );
  for (const row of rows) {
    const task = world.tasks.get(row.id);
    if (!task) continue;
    const results = parsed<{ metric: string; op: string; value: number; actual: number | null; ok: boolean }[]>(row.threshold_results) ?? [];
    const payload = parsed<{ verdict?: string | null; start_failed?: boolean }>(row.payload);
    const label = `task ${task.id} (${row.status}, ${task.gate ? `gated ${task.gate}` : 'no thresholds'}, error: ${row.error_message})`;
    if ((payload.verdict ?? null) !== row.verdict) world.violate(`${label}: verdict ${row.verdict} but its run.finished says ${payload.verdict}`);
    const judged = task.gate !== null && row.status !== 'cancelled' && !payload.start_failed;
    if (!judged) {
      if (row.verdict !== null || results.length > 0) world.violate(`${label}: has verdict ${row.verdict} and ${results.length} threshold results; expected none`);
      continue;
    }
    const [threshold] = gateThresholds[task.gate!];
    const [result] = results;
    if (results.length !== 1 || !result || result.metric !== threshold!.metric || result.op !== threshold!.op || result.value !== threshold!.value) {
      world.violate(`${label}: threshold results ${JSON.stringify(results)}; expected the test's ${JSON.stringify(threshold)}`);
      continue;
    }
    const measured = Number(row.total_requests ?? 0) > 0 ? Number(row.error_rate) : null;
    const holds = measured !== null && (threshold!.op === '<' ? measured < threshold!.value : measured <= threshold!.value);
    if (result.actual !== measured || result.ok !== holds) world.violate(`${label}: judged ${JSON.stringify(result)} on an error rate of ${measured}`);
    if (row.verdict !== (holds ? 'passed' : 'failed')) world.violate(`${label}: verdict ${row.verdict}; its threshold ${holds ? 'holds' : 'fails'}`);
    if (!holds && (row.status !== 'failed' || !row.error_message?.includes(`thresholds failed: error_rate ${threshold!.op} ${threshold!.value}`))) {
      world.violate(`${label}: a failing threshold must fail the run and be named in its error`);
    }
  }
}

async function checkLines(world: World) {
  const rows = await world.sql<{ task_id: string; seq: string | number; text: string }>('select task_id, seq, text from task_logs where not relay order by task_id, seq');
  const byTask = new Map<string, { seq: number; text: string }[]>();
  for (const r of rows) byTask.set(r.task_id, [...(byTask.get(r.task_id) ?? []), { seq: Number(r.seq), text: r.text }]);
  for (const task of world.tasks.values()) {
    const stored = byTask.get(task.id) ?? [];
    stored.forEach((line, i) => line.seq !== i + 1 && world.violate(`task ${task.id}: stored line ${i + 1} has seq ${line.seq}`));
    const texts = stored.map((l) => l.text);
    if (new Set(texts).size !== texts.length) world.violate(`task ${task.id}: a line is stored twice`);
    const missing = task.lines.filter((t) => !texts.includes(t));
    if (missing.length > 0) world.violate(`task ${task.id}: ${missing.length} lines sent while it ran are not stored (${missing[0]})`);
    // Each agent's lines keep the order it sent them in.
    const sentOrder = new Map(task.lines.map((t, i) => [t, i]));
    for (const machine of world.machines) {
      const mine = texts.filter((t) => t.endsWith(` of ${machine.key}`) && sentOrder.has(t)).map((t) => sentOrder.get(t)!);
      if (mine.some((v, i) => i > 0 && v < mine[i - 1]!)) world.violate(`task ${task.id}: lines of ${machine.key} are stored out of order`);
    }
    for (const entry of task.subscribers) checkSubscriber(world, task, entry, texts);
  }
}

function checkSubscriber(world: World, task: TaskModel, entry: TaskModel['subscribers'][number], stored: string[]) {
  const { subscriber, expectFull } = entry;
  const label = `subscriber (step ${entry.openedAtStep}) of task ${task.id}`;
  for (const problem of subscriber.problems.splice(0)) world.violate(`${label}: ${problem}`);
  const terminalAt = subscriber.events.findIndex((e) => e.data.type === 'done' || e.data.type === 'error');
  const terminals = subscriber.events.filter((e) => e.data.type === 'done' || e.data.type === 'error').length;
  if (terminals > 1) world.violate(`${label} got ${terminals} terminal events`);
  if (terminalAt >= 0 && terminalAt !== subscriber.events.length - 1) world.violate(`${label} got ${subscriber.events[terminalAt + 1]!.data.type} after its terminal event`);
  const logs = subscriber.events.filter((e) => e.data.type === 'log');
  const ids = logs.map((e) => Number(e.id));
  if (ids.some((id, i) => id !== i + 1)) world.violate(`${label} got line ids ${ids.join(',')} (gaps or duplicates)`);
  const texts = logs.map((e) => String(e.data.text));
  if (texts.some((t, i) => t !== stored[i])) world.violate(`${label} got lines that differ from the stored ones: ${JSON.stringify(texts.slice(0, 5))} vs ${JSON.stringify(stored.slice(0, 5))}`);
  if (!subscriber.isFinished()) {
    if (task.terminal) world.violate(`${label}: the task is ${task.terminal.status} but the stream has not ended with a terminal event`);
    return;
  }
  if (!subscriber.endedAfterTerminal()) world.violate(`${label}: the stream did not end after its terminal event`);
  // A client that came while the run was going gets every stored line before the end.
  if ((expectFull || logs.length > 0) && texts.length !== stored.length) world.violate(`${label} got ${texts.length} of ${stored.length} stored lines before its terminal event`);
  const terminal = subscriber.events[terminalAt]!.data as { task?: { status?: string } };
  if (terminal.task?.status && task.terminal && terminal.task.status !== task.terminal.status) world.violate(`${label}'s terminal event says ${terminal.task.status}; the task is ${task.terminal.status}`);
}
