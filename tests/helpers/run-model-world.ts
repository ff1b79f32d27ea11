/**
 * The world of the run-lifecycle model test: one service (restartable on the same port and database), two workspaces
 * with scripted protocol agents, and the model of what the test has done to every task and what it therefore expects.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProtocolAgent, type ProtocolAgent, type Report } from './protocol-agent.ts';
import { startPostgresServer } from './postgres-server.ts';
import { freePort } from './service-process.ts';
import type { SseSubscriber } from './sse-subscriber.ts';
import { startTestService, type TestService, usesPostgres } from './test-service.ts';

export const graceSeconds = 2;
export const finalStatuses = ['completed', 'failed', 'cancelled'] as const;
export type FinalStatus = (typeof finalStatuses)[number];
export const isFinal = (status: string): status is FinalStatus => (finalStatuses as readonly string[]).includes(status);

export interface MachineModel {
  key: string;
  workspace: WorkspaceModel;
  agent: ProtocolAgent;
  /** When the agent last went away (test clock), null while it is connected. */
  awaySince: number | null;
}

export interface WorkspaceModel {
  index: number;
  token: string;
  agentToken: string;
  tests: Record<string, string>;
  machines: MachineModel[];
}

export interface AssignmentModel {
  id: string;
  machine: MachineModel;
  /** What the agent said about it, or 'lost' when the agent forgot it (a crash) or the server told it to. */
  outcome: Report | 'lost' | 'cancel-confirmed' | null;
  /** Its agent was away while holding it: the server may end it after the grace period. */
  away: boolean;
}

/**
 * The thresholds of the model's gated `custom` tests, judged on the agents' good summaries (error rate 0.2): `pass`
 * holds, `fail` never does (so a run of it that its machines completed ends failed). Null: a test without thresholds.
 */
export type Gate = 'pass' | 'fail';
export const gateThresholds: Record<Gate, { metric: 'error_rate'; op: '<=' | '<'; value: number }[]> = {
  pass: [{ metric: 'error_rate', op: '<=', value: 0.5 }],
  fail: [{ metric: 'error_rate', op: '<', value: 0.1 }],
};

export interface TaskModel {
  id: string;
  workspace: WorkspaceModel;
  tool: string;
  gate: Gate | null;
  requested: MachineModel[] | null;
  /** DELETE /tasks/:id answered and the task read `cancelled` right after. */
  cancelledByApi: boolean;
  /** Machines whose agent went away while the task had an active assignment there: the server may fail it after the grace. */
  awayRisk: Set<string>;
  assignments: Map<string, AssignmentModel>;
  /** The first terminal state seen; it must never change. */
  terminal: { status: string; finishedAt: string | null } | null;
  /** Every line the agents sent for it, while it was running and not being cancelled (all must be stored). */
  lines: string[];
  subscribers: { subscriber: SseSubscriber; expectFull: boolean; openedAtStep: number }[];
}

export interface World {
  ts: TestService;
  port: number;
  workspaces: WorkspaceModel[];
  machines: MachineModel[];
  tasks: Map<string, TaskModel>;
  step: number;
  /** Invariant violations, each with the step that found it. */
  violations: string[];
  log: string[];
  api(path: string, init?: { method?: string; json?: unknown; token?: string; headers?: Record<string, string> }): Promise<Response>;
  sql<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** Stops the service and starts it again on the same port and database, after `downMillis` more; returns the time it was down. */
  restart(downMillis?: number): Promise<number>;
  violate(message: string): void;
  close(): Promise<void>;
}

const machinePlan = [
  // Tools differ per machine, so "eligible" is more than "connected and idle".
  [['custom', 'k6'], ['custom'], ['k6']],
  [['custom'], ['custom', 'k6']],
];

export async function createWorld(): Promise<World> {
  const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-model-'));
  // One database for every incarnation of the service: a PostgreSQL server when DATABASE_URL is set, else PGlite files.
  const postgres = usesPostgres() ? await startPostgresServer() : null;
  if (usesPostgres() && !postgres) throw new Error('DATABASE_URL is set but no PostgreSQL server could be reached');
  const port = await freePort();
  const boot = async () => {
    const ts = await startTestService({
      port,
      dataDir,
      database: postgres ? postgres.url : 'disk',
      keepDataDir: true,
      env: { AGENT_GRACE_SECONDS: String(graceSeconds) },
    });
    await ts.listen();
    return ts;
  };

  const world: World = {
    ts: await boot(),
    port,
    workspaces: [],
    machines: [],
    tasks: new Map(),
    step: 0,
    violations: [],
    log: [],
    api(path, init = {}) {
      return world.ts.request(`/api/v1${path}`, {
        method: init.method ?? 'GET',
        ...(init.token ? { token: init.token } : {}),
        ...(init.headers ? { headers: init.headers } : {}),
        ...(init.json !== undefined ? { json: init.json } : {}),
      });
    },
    sql<T>(text: string, params: unknown[] = []) {
      return (world.ts.service.database.fork() as unknown as { getConnection(): { execute(s: string, p: unknown[]): Promise<T[]> } })
        .getConnection()
        .execute(text, params);
    },
    async restart(downMillis = 0) {
      const began = Date.now();
      await world.ts.stop();
      await Bun.sleep(downMillis);
      world.ts = await boot();
      return Date.now() - began;
    },
    violate(message) {
      world.violations.push(`step ${world.step}: ${message}`);
    },
    async close() {
      for (const machine of world.machines) await machine.agent.stop();
      for (const task of world.tasks.values()) for (const { subscriber } of task.subscribers) subscriber.stop();
      await world.ts.stop();
      await postgres?.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };

  for (const [index, plan] of machinePlan.entries()) {
    const owner = await world.ts.apiToken(`model-owner-${index}`);
    const minted = await world.api('/api-tokens', { method: 'POST', token: owner.jwt, json: { name: 'agents', scopes: ['machines:write', 'runs:write'] } });
    if (minted.status !== 201) throw new Error(`agent token: ${minted.status} ${await minted.text()}`);
    const workspace: WorkspaceModel = { index, token: owner.token, agentToken: ((await minted.json()) as { token: string }).token, tests: {}, machines: [] };
    const scripts: Record<string, string> = { custom: '#!/bin/sh\necho scripted\n', k6: 'export default function () {}\n' };
    for (const tool of ['custom', 'k6']) {
      const created = await world.api('/tests', { method: 'POST', token: owner.token, json: { name: `model ${tool}`, tool, script: scripts[tool] } });
      if (created.status !== 201) throw new Error(`create ${tool} test: ${created.status} ${await created.text()}`);
      workspace.tests[tool] = ((await created.json()) as { id: string }).id;
    }
    for (const gate of ['pass', 'fail'] as const) {
      const created = await world.api('/tests', {
        method: 'POST',
        token: owner.token,
        json: { name: `model gated ${gate}`, tool: 'custom', script: scripts.custom, thresholds: gateThresholds[gate] },
      });
      if (created.status !== 201) throw new Error(`create gated test: ${created.status} ${await created.text()}`);
      workspace.tests[`custom-gated-${gate}`] = ((await created.json()) as { id: string }).id;
    }
    for (const [m, tools] of plan.entries()) {
      const key = `w${index}-m${m}`;
      const agent = createProtocolAgent({ origin: `http://127.0.0.1:${port}`, token: workspace.agentToken, hostname: `model-${key}`, tools });
      const machine: MachineModel = { key, workspace, agent, awaySince: Date.now() };
      workspace.machines.push(machine);
      world.machines.push(machine);
    }
    world.workspaces.push(workspace);
  }
  return world;
}

/** Folds what the agents have received into the model: new assignments, and the runs the server told them to drop. */
export function syncAgents(world: World): void {
  for (const machine of world.machines) {
    const agent = machine.agent;
    for (const assignment of agent.received.assigns) {
      const task = world.tasks.get(assignment.taskId);
      if (!task) {
        world.violate(`${machine.key} was assigned ${assignment.assignmentId} of a task the test never started (${assignment.taskId})`);
        continue;
      }
      if (task.workspace !== machine.workspace) world.violate(`task ${task.id} of workspace ${task.workspace.index} was sent to ${machine.key}`);
      if (!task.assignments.has(assignment.assignmentId)) {
        task.assignments.set(assignment.assignmentId, { id: assignment.assignmentId, machine, outcome: null, away: false });
      }
    }
    for (const id of agent.forgottenByServer) {
      const assignment = findAssignment(world, id);
      if (assignment && assignment.outcome === null) assignment.outcome = 'lost';
    }
    if (agent.isConnected()) {
      // Runs the server resumed are no longer at risk from the agent's absence.
      for (const id of agent.runs.keys()) {
        const assignment = findAssignment(world, id);
        if (assignment) assignment.away = false;
      }
    }
  }
}

export function findAssignment(world: World, id: string): AssignmentModel | null {
  for (const task of world.tasks.values()) {
    const found = task.assignments.get(id);
    if (found) return found;
  }
  return null;
}

export function taskOfAssignment(world: World, id: string): TaskModel | null {
  for (const task of world.tasks.values()) if (task.assignments.has(id)) return task;
  return null;
}

/** Polls until `ok`; returns the last value either way (the caller decides whether that is a violation). */
export async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs: number): Promise<{ value: T; ok: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return { value, ok: true };
    if (Date.now() > deadline) return { value, ok: false };
    await Bun.sleep(40);
  }
}
