/**
 * The presence steps of the run-lifecycle model: agents connecting, going away cleanly or crashing, and the service
 * restarting; what the model may no longer predict while an agent is away, and what it learns when the agent is back.
 */
import { eventually, graceSeconds, type MachineModel, syncAgents, type World } from './run-model-world.ts';
import type { SeededRandom } from './seeded-random.ts';

const active = ['pending', 'running', 'cancelling'];
const connected = (world: World) => world.machines.filter((m) => m.agent.isConnected());

/** Tasks with an active assignment on these machines may now be failed by the server once the grace period is over. */
export async function markAway(world: World, machines: MachineModel[]) {
  const ids = machines.map((m) => m.agent.machineId()).filter((id): id is string => id !== null);
  if (ids.length > 0) {
    const rows = await world.sql<{ task_id: string; machine_id: string }>(
      `select task_id, machine_id from task_assignments where machine_id in (${ids.map(() => '?').join(', ')}) and status in ('pending', 'running', 'cancelling')`,
      ids,
    );
    for (const row of rows) world.tasks.get(row.task_id)?.awayRisk.add(machines.find((m) => m.agent.machineId() === row.machine_id)!.key);
  }
  for (const machine of machines) {
    machine.awaySince = Date.now();
    for (const id of machine.agent.runs.keys()) {
      for (const task of world.tasks.values()) {
        const assignment = task.assignments.get(id);
        if (assignment) assignment.away = true;
      }
    }
  }
}

/**
 * The agent is back: whatever the server did while it was away is now decided. An assignment it ended then (grace
 * expired) counts as lost; one still active is no longer at risk.
 */
export async function settleAway(world: World, machine: MachineModel) {
  syncAgents(world);
  for (const task of world.tasks.values()) {
    if (!task.awayRisk.has(machine.key)) continue;
    const rows = await world.sql<{ id: string; status: string }>('select id, status from task_assignments where task_id = ? and machine_id = ?', [
      task.id,
      machine.agent.machineId(),
    ]);
    for (const row of rows) {
      if (active.includes(row.status)) continue;
      const known = task.assignments.get(row.id);
      if (!known) task.assignments.set(row.id, { id: row.id, machine, outcome: 'lost', away: false });
      else if (known.outcome === null) known.outcome = 'lost';
    }
    task.awayRisk.delete(machine.key);
  }
}

export async function connectAgent(world: World, random: SeededRandom): Promise<string | null> {
  const away = world.machines.filter((m) => !m.agent.wantsConnection());
  if (away.length === 0) return null;
  const machine = random.pick(away);
  const held = machine.agent.runs.size;
  try {
    await machine.agent.connect();
  } catch (error) {
    world.violate(`${machine.key} could not connect: ${String(error)}`);
    return `connect ${machine.key} failed`;
  }
  machine.awaySince = null;
  // Let the server finish what the hello set off (resends, losses) before deciding what the absence cost.
  await Bun.sleep(200);
  await settleAway(world, machine);
  const welcome = machine.agent.received.welcomes.at(-1)!;
  return `connect ${machine.key} (held ${held}, resumed ${welcome.resumed.length}, unknown ${welcome.unknown.length})`;
}

export async function disconnectAgent(world: World, random: SeededRandom, kill: boolean): Promise<string | null> {
  const machines = connected(world);
  if (machines.length === 0) return null;
  const machine = random.pick(machines);
  await markAway(world, [machine]);
  if (kill) {
    // A crash forgets every run: those the server saw begin are lost for good.
    for (const run of machine.agent.runs.values()) {
      const assignment = world.tasks.get(run.assignment.taskId)?.assignments.get(run.assignment.assignmentId);
      if (assignment && run.started) assignment.outcome = 'lost';
    }
    await machine.agent.kill();
  } else {
    await machine.agent.disconnect();
  }
  // Offline in the API soon after: the socket's presence ends with it.
  const offline = await eventually(
    async () => ((await (await world.api('/machines', { token: machine.workspace.token })).json()) as { hostname: string; status: string }[]).find((m) => m.hostname === machine.agent.hostname)?.status,
    (status) => status === 'offline',
    3_000,
  );
  if (!offline.ok) world.violate(`${machine.key} is ${offline.value} 3 s after its agent ${kill ? 'was killed' : 'disconnected'}`);
  // A dispatch that read the machine as connected just before may still land on it: count it as away too.
  await Bun.sleep(150);
  await markAway(world, [machine]);
  return `${kill ? 'kill' : 'disconnect'} ${machine.key}`;
}

export async function restartServer(world: World, random: SeededRandom): Promise<string> {
  await markAway(world, connected(world));
  // Sometimes down for longer than the grace period: the restarted service must then settle the runs it lost.
  const millis = await world.restart(random.chance(0.35) ? (graceSeconds + 1) * 1000 : 0);
  for (const machine of world.machines.filter((m) => m.agent.wantsConnection())) {
    try {
      await machine.agent.waitConnected(20_000);
      machine.awaySince = null;
      await Bun.sleep(200);
      await settleAway(world, machine);
    } catch (error) {
      world.violate(`${machine.key} did not reconnect after the restart: ${String(error)}`);
    }
  }
  syncAgents(world);
  return `restart (${millis} ms down)`;
}
