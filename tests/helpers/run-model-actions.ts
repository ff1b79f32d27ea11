/**
 * The steps of the run-lifecycle model: each checks that it applies, acts through the API or a scripted agent, waits
 * for the server to take the action in (bounded), checks what must hold right after it, and updates the model.
 */
import type { Report } from './protocol-agent.ts';
import { expectationOf } from './run-model-expectations.ts';
import { settleAway } from './run-model-presence.ts';
import { eventually, type Gate, isFinal, type MachineModel, syncAgents, type TaskModel, type World } from './run-model-world.ts';
import type { SeededRandom } from './seeded-random.ts';
import { subscribeSse } from './sse-subscriber.ts';

const active = ['pending', 'running', 'cancelling'];
let lineCounter = 0;

async function taskStatus(world: World, task: TaskModel): Promise<{ status: string; error: string | null }> {
  const response = await world.api(`/tasks/${task.id}`, { token: task.workspace.token });
  if (response.status !== 200) throw new Error(`GET /tasks/${task.id}: ${response.status}`);
  return (await response.json()) as { status: string; error: string | null };
}

const assignmentStatus = async (world: World, id: string) =>
  (await world.sql<{ status: string; reason: string | null }>('select status, reason from task_assignments where id = ?', [id]))[0] ?? null;

const connected = (world: World) => world.machines.filter((m) => m.agent.isConnected());
const heldRuns = (world: World) =>
  connected(world).flatMap((machine) => [...machine.agent.runs.values()].map((run) => ({ machine, run, task: world.tasks.get(run.assignment.taskId)! })));

export async function startRun(world: World, random: SeededRandom): Promise<string> {
  const workspace = random.pick(world.workspaces);
  const tool = random.pick(['custom', 'custom', 'k6']);
  // Only machines that exist (their agent registered once) can be asked for by id.
  const capable = workspace.machines.filter((m) => m.agent.tools.includes(tool) && m.agent.machineId() !== null);
  const roll = random.next();
  const requested = roll < 0.6 || capable.length === 0 ? null : roll < 0.9 || capable.length < 2 ? [random.pick(capable)] : capable.slice(0, 2);
  // Some custom runs are of a test with thresholds: their verdict, and a failing one's status, are checked too.
  const gate: Gate | null = tool === 'custom' ? random.pick([null, null, 'pass', 'fail'] as const) : null;
  const response = await world.api('/tasks', {
    method: 'POST',
    token: workspace.token,
    json: { testId: workspace.tests[gate ? `custom-gated-${gate}` : tool], ...(requested ? { machineIds: requested.map((m) => m.agent.machineId()) } : {}) },
  });
  const body = (await response.json()) as { id: string; status: string };
  if (response.status !== 202 || body.status !== 'pending') {
    world.violate(`POST /tasks answered ${response.status} ${JSON.stringify(body)}; expected 202 pending`);
    return 'start refused';
  }
  world.tasks.set(body.id, {
    id: body.id,
    workspace,
    tool,
    gate,
    requested,
    cancelledByApi: false,
    awayRisk: new Set(),
    assignments: new Map(),
    terminal: null,
    lines: [],
    subscribers: [],
  });
  return `start ${body.id.slice(0, 8)} w${workspace.index} ${tool}${gate ? ` (gated ${gate})` : ''} on ${requested ? requested.map((m) => m.key).join('+') : 'any'}`;
}

export async function cancelRun(world: World, random: SeededRandom): Promise<string | null> {
  const tasks = [...world.tasks.values()];
  const open = tasks.filter((t) => !t.terminal);
  // Cancels of runs an agent holds matter most (the machine must stay taken until the agent confirms): prefer them.
  const held = new Set(world.machines.flatMap((m) => [...m.agent.runs.values()].map((run) => run.assignment.taskId)));
  const running = open.filter((t) => held.has(t.id));
  const task =
    running.length > 0 && random.chance(0.6)
      ? random.pick(running)
      : open.length > 0 && random.chance(0.9)
        ? random.pick(open)
        : tasks.length > 0
          ? random.pick(tasks)
          : null;
  if (!task) return null;
  const before = await taskStatus(world, task);
  const response = await world.api(`/tasks/${task.id}`, { method: 'DELETE', token: task.workspace.token });
  if (response.status !== 204) world.violate(`DELETE /tasks/${task.id} answered ${response.status}`);
  const after = await taskStatus(world, task);
  if (isFinal(before.status)) {
    if (after.status !== before.status) world.violate(`DELETE changed the finished task ${task.id} from ${before.status} to ${after.status}`);
  } else if (after.status === 'cancelled') {
    task.cancelledByApi = true;
    // Cancelled at once; what ran is now being stopped (or already ended), never still pending or running.
    const rows = await world.sql<{ id: string; status: string }>('select id, status from task_assignments where task_id = ?', [task.id]);
    const stillGoing = rows.filter((r) => r.status === 'pending' || r.status === 'running');
    if (stillGoing.length > 0) world.violate(`task ${task.id} is cancelled but assignments are still ${stillGoing.map((r) => r.status).join(', ')}`);
  } else if (!(isFinal(after.status) && expectationOf(task).allowed.has(after.status))) {
    world.violate(`DELETE of the ${before.status} task ${task.id} left it ${after.status}; expected cancelled`);
  }
  return `cancel ${task.id.slice(0, 8)} (${before.status} -> ${after.status})`;
}

/** Waits until the server recorded an assignment past `pending` (started) or as ended. */
async function awaitAssignment(world: World, id: string, done: (status: string) => boolean, what: string) {
  const seen = await eventually(() => assignmentStatus(world, id), (row) => row !== null && done(row.status), 5_000);
  if (!seen.ok) world.violate(`assignment ${id} is ${seen.value?.status ?? 'missing'} 5 s after the agent ${what}`);
  return seen.value;
}

export async function startAssignment(world: World, random: SeededRandom): Promise<string | null> {
  const candidates = heldRuns(world).filter(({ run }) => !run.started);
  if (candidates.length === 0) return null;
  const { machine, run } = random.pick(candidates);
  machine.agent.start(run.assignment.assignmentId);
  await awaitAssignment(world, run.assignment.assignmentId, (s) => s !== 'pending', 'sent started');
  return `${machine.key} starts ${run.assignment.assignmentId.slice(0, 8)}`;
}

export async function sendLogs(world: World, random: SeededRandom): Promise<string | null> {
  const candidates = heldRuns(world).filter(({ run, task }) => run.started && !run.cancelRequested && !task.cancelledByApi);
  if (candidates.length === 0) return null;
  const { machine, run, task } = random.pick(candidates);
  const id = run.assignment.assignmentId;
  // Lines of an assignment being stopped are not stored by design; only a running one's must all arrive.
  const status = (await assignmentStatus(world, id))?.status;
  const texts = Array.from({ length: random.int(1, 4) }, () => `line ${++lineCounter} of ${machine.key}`);
  machine.agent.log(id, texts);
  if (status !== 'running') return `${machine.key} logs to its ${status} ${id.slice(0, 8)} (not stored)`;
  task.lines.push(...texts);
  const stored = await eventually(
    async () => (await world.sql<{ n: number }>(`select count(*)::int as n from task_logs where task_id = ? and text in (${texts.map(() => '?').join(', ')})`, [task.id, ...texts]))[0]!.n,
    (n) => n === texts.length,
    3_000,
  );
  if (!stored.ok) world.violate(`${stored.value} of ${texts.length} lines sent to the running assignment ${id} were stored within 3 s`);
  return `${machine.key} logs ${texts.length} lines to ${task.id.slice(0, 8)}`;
}

export async function reportAssignment(world: World, random: SeededRandom, report: Report): Promise<string | null> {
  // A tool that could not start never said it started.
  const candidates = heldRuns(world).filter(({ run }) => report !== 'start-failed' || !run.started);
  if (candidates.length === 0) return null;
  const { machine, run, task } = random.pick(candidates);
  const id = run.assignment.assignmentId;
  if (report !== 'start-failed' && !run.started) {
    machine.agent.start(id);
    await awaitAssignment(world, id, (s) => s !== 'pending', 'sent started');
  }
  machine.agent.report(id, report);
  task.assignments.get(id)!.outcome = report;
  const row = await awaitAssignment(world, id, (s) => !active.includes(s), `reported ${report}`);
  if (report.startsWith('bad-') && row && row.status === 'failed' && !row.reason) world.violate(`the bad report of ${id} failed it without a reason`);
  if (report.startsWith('bad-') && row && !task.cancelledByApi && row.status !== 'failed') world.violate(`the bad report of ${id} left it ${row.status}`);
  await awaitDetermined(world, task);
  return `${machine.key} reports ${report} for ${task.id.slice(0, 8)}`;
}

/** When the model knows how the task ends, it must have ended so by now (bounded). */
async function awaitDetermined(world: World, task: TaskModel) {
  const { determined } = expectationOf(task);
  if (!determined) return;
  const seen = await eventually(() => taskStatus(world, task), (t) => isFinal(t.status), 5_000);
  if (!seen.ok) world.violate(`task ${task.id} is still ${seen.value.status} 5 s after its outcome was decided (${determined})`);
  else if (seen.value.status !== determined && !(task.terminal && task.terminal.status === seen.value.status)) {
    world.violate(`task ${task.id} ended ${seen.value.status} (error: ${seen.value.error}); the model expected ${determined}`);
  }
}

export async function raceFinishWithCancel(world: World, random: SeededRandom): Promise<string | null> {
  const candidates = heldRuns(world).filter(({ run, task }) => run.started && !task.cancelledByApi && !task.terminal);
  if (candidates.length === 0) return null;
  const { machine, run, task } = random.pick(candidates);
  const id = run.assignment.assignmentId;
  const [response] = await Promise.all([
    world.api(`/tasks/${task.id}`, { method: 'DELETE', token: task.workspace.token }),
    Promise.resolve().then(() => machine.agent.report(id, 'completed')),
  ]);
  task.assignments.get(id)!.outcome = 'completed';
  if (response.status !== 204) world.violate(`DELETE /tasks/${task.id} racing a finish answered ${response.status}`);
  const after = await taskStatus(world, task);
  // Whichever came first wins: cancelled, or the finish (then the DELETE changed nothing).
  if (after.status === 'cancelled') task.cancelledByApi = true;
  await awaitAssignment(world, id, (s) => !active.includes(s), 'finished (racing a cancel)');
  await awaitDetermined(world, task);
  return `race finish/cancel on ${task.id.slice(0, 8)} -> ${after.status}`;
}

export async function toggleHoldCancels(world: World, random: SeededRandom): Promise<string | null> {
  const machine = random.pick(world.machines);
  const hold = !machine.agent.holdsCancels();
  machine.agent.setHoldCancels(hold);
  if (!hold && machine.agent.isConnected()) await confirmCancelsOf(world, machine);
  return `${machine.key} ${hold ? 'holds' : 'answers'} cancels`;
}

async function confirmCancelsOf(world: World, machine: MachineModel) {
  const answered = machine.agent.confirmCancels();
  for (const id of answered) {
    const task = world.tasks.get(machine.agent.received.assigns.find((a) => a.assignmentId === id)!.taskId)!;
    task.assignments.get(id)!.outcome = 'cancel-confirmed';
    await awaitAssignment(world, id, (s) => !active.includes(s), 'confirmed a cancel');
  }
  return answered.length;
}

export async function confirmCancels(world: World, random: SeededRandom): Promise<string | null> {
  const holding = connected(world).filter((m) => [...m.agent.runs.values()].some((r) => r.cancelRequested));
  if (holding.length === 0) return null;
  const machine = random.pick(holding);
  return `${machine.key} confirms ${await confirmCancelsOf(world, machine)} cancels`;
}

export async function openSubscriber(world: World, random: SeededRandom): Promise<string | null> {
  const tasks = [...world.tasks.values()];
  if (tasks.length === 0) return null;
  const open = tasks.filter((t) => !t.terminal);
  const task = open.length > 0 && random.chance(0.8) ? random.pick(open) : random.pick(tasks);
  const status = (await taskStatus(world, task)).status;
  // Only the test moves runs on, so a run going now (and not at the mercy of a grace period) is still going when the server reads it.
  const expectFull = !isFinal(status) && expectationOf(task).allowed.size === 0;
  const subscriber = subscribeSse(world.ts.url, task.workspace.token, task.id);
  await subscriber.opened;
  await Bun.sleep(150);
  task.subscribers.push({ subscriber, expectFull, openedAtStep: world.step });
  return `subscribe to ${task.id.slice(0, 8)} (${status})`;
}

/** End of the run: every agent back and answering cancels, every run it gets completed, until no task is left open. */
export async function drain(world: World, timeoutMs: number): Promise<boolean> {
  for (const machine of world.machines) {
    machine.agent.setHoldCancels(false);
    if (!machine.agent.wantsConnection()) {
      await machine.agent.connect();
      machine.awaySince = null;
      await Bun.sleep(200);
      await settleAway(world, machine);
    }
  }
  for (const machine of world.machines) await confirmCancelsOf(world, machine);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    syncAgents(world);
    for (const { machine, run, task } of heldRuns(world)) {
      const id = run.assignment.assignmentId;
      if (!run.started) {
        machine.agent.start(id);
        await awaitAssignment(world, id, (s) => s !== 'pending', 'sent started');
      }
      machine.agent.report(id, 'completed');
      task.assignments.get(id)!.outcome = 'completed';
      await awaitAssignment(world, id, (s) => !active.includes(s), 'reported completed');
    }
    const open = await world.sql<{ n: number }>(`select count(*)::int as n from tasks where status in ('pending', 'running')`);
    if (open[0]!.n === 0) return true;
    await Bun.sleep(100);
  }
  return false;
}
