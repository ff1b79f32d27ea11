/**
 * What the engine integration tests (Locust, Artillery, Gatling) share: a loopback target with known delays that
 * counts what it served, running a test through the API to its end, the figures checked against the target's count,
 * a second in-process agent, the engine processes of a task, and a cancel that must leave none of them behind.
 */
import { expect } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import type { TestService } from './test-service.ts';

export { startInProcessAgent as startSecondAgent } from './service-with-agent.ts';

export interface Task {
  id: string;
  status: string;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  error_rate: number | null;
  total_requests: number | null;
  requests_per_sec: number | null;
}

/**
 * `GET /delay/<ms>` answers after `ms` milliseconds, any other path after `delayMs()` (default: at once); every
 * answer is counted.
 */
export function startDelayTarget(options: { delayMs?: () => number } = {}) {
  const target = { served: 0, server: null as ReturnType<typeof Bun.serve> | null };
  target.server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      target.served++;
      const asked = /^\/delay\/(\d+)/.exec(new URL(request.url).pathname)?.[1];
      const delay = asked !== undefined ? Number(asked) : (options.delayMs?.() ?? 0);
      if (delay > 0) await Bun.sleep(delay);
      return new Response('ok');
    },
  });
  return { ...target, get served() { return target.served; }, url: `http://127.0.0.1:${target.server.port}`, stop: () => target.server?.stop(true) };
}

export async function createTest(ts: TestService, token: string, tool: string, script: string): Promise<Response> {
  return ts.request('/api/v1/tests', { method: 'POST', token, json: { name: `${tool} test`, tool, script } });
}

export interface TaskOptions {
  tool: string;
  script: string;
  config?: Record<string, unknown>;
  machineIds?: string[];
}

/** Starts a task of a new test (the answer to POST /tests, /configs or /tasks is returned when it is not 201, 201, 202). */
export async function startTask(ts: TestService, token: string, options: TaskOptions): Promise<{ id: string } | Response> {
  const created = await createTest(ts, token, options.tool, options.script);
  if (created.status !== 201) return created;
  const { id: testId } = (await created.json()) as { id: string };
  let configId: string | undefined;
  if (options.config) {
    const saved = await ts.request('/api/v1/configs', { method: 'POST', token, json: { name: `${options.tool} config`, ...options.config } });
    if (saved.status !== 201) return saved;
    configId = ((await saved.json()) as { id: string }).id;
  }
  const started = await ts.request('/api/v1/tasks', {
    method: 'POST',
    token,
    json: { testId, ...(configId ? { configId } : {}), ...(options.machineIds ? { machineIds: options.machineIds } : {}) },
  });
  if (started.status !== 202) return started;
  return (await started.json()) as { id: string };
}

/** Starts a task that must be accepted; its id. */
export async function startAccepted(ts: TestService, token: string, options: TaskOptions): Promise<string> {
  const started = await startTask(ts, token, options);
  if (started instanceof Response) throw new Error(`the ${options.tool} task was not started: ${started.status} ${await started.text()}`);
  return started.id;
}

/** A script refused with 400, the message naming the problem. */
export async function expectRefused(ts: TestService, token: string, options: TaskOptions, message: string): Promise<void> {
  const refused = await startTask(ts, token, options);
  if (!(refused instanceof Response)) throw new Error(`the ${options.tool} task was started (${refused.id}), not refused`);
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { message: string }).message).toContain(message);
}

type Target = ReturnType<typeof startDelayTarget>;

/** Runs a task (which must be accepted) to its end: the task, and how many requests the target served meanwhile. */
export async function runToEnd(ts: TestService, token: string, target: Target, options: TaskOptions, detail?: () => string): Promise<{ task: Task; served: number }> {
  const before = target.served;
  const task = await waitForEnd(ts, token, await startAccepted(ts, token, options), 90_000, detail);
  return { task, served: target.served - before };
}

/** A run that ended failed after sending requests, its task view (runs and their reasons) naming `reason`. */
export async function expectFailedRun(ts: TestService, token: string, task: Task, reason: string): Promise<void> {
  expect(task.status).toBe('failed');
  expect(task.total_requests!).toBeGreaterThan(0);
  const view = (await (await ts.request(`/api/v1/tasks/${task.id}`, { token })).json()) as Record<string, unknown>;
  expect(JSON.stringify(view)).toContain(reason);
}

/** Starts a task (which must be accepted) and waits until the target served `requests` of it: its id. */
export async function startServing(ts: TestService, token: string, target: Target, options: TaskOptions, requests = 30): Promise<string> {
  const before = target.served;
  const id = await startAccepted(ts, token, options);
  await settle(() => target.served - before >= requests, 60_000, 50);
  expect(target.served - before).toBeGreaterThanOrEqual(requests);
  return id;
}

/** Log lines arrive while the run goes on (live, not at its end): `line` is stored and the task still runs. */
export async function expectLiveLog(ts: TestService, token: string, id: string, line: string): Promise<void> {
  await settle(async () => (await taskLog(ts, id)).includes(line), 30_000);
  expect(await taskLog(ts, id)).toContain(line);
  expect((await readTask(ts, token, id)).status).toBe('running');
}

export async function readTask(ts: TestService, token: string, id: string): Promise<Task> {
  return (await (await ts.request(`/api/v1/tasks/${id}`, { token })).json()) as Task;
}

/** The task once it ended; `detail` adds to the error when it does not (an agent process's output, say). */
export async function waitForEnd(ts: TestService, token: string, id: string, timeoutMs = 90_000, detail?: () => string): Promise<Task> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await readTask(ts, token, id);
    if (['completed', 'failed', 'cancelled'].includes(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${id} did not end: ${JSON.stringify(task)}${detail ? `\n${detail()}` : ''}`);
    await Bun.sleep(100);
  }
}

export async function taskLog(ts: TestService, taskId: string): Promise<string[]> {
  const rows: { text: string }[] = await ts.service.database
    .fork()
    .getConnection()
    .execute('select text from task_logs where task_id = ? order by seq', [taskId]);
  return rows.map((row) => row.text);
}

/** Waits until `check` holds or `timeoutMs` passed, whichever comes first; the caller asserts what it expects then. */
export async function settle(check: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < deadline) await Bun.sleep(intervalMs);
}

/** A completed run's figures against the target: exactly the requests it served, no errors, p50 <= p95 <= p99 < 10 s. */
export function expectServedFigures(task: Task, served: number, minP50Ms: number): void {
  expect(task.total_requests).toBe(served);
  expect(task.error_rate).toBe(0);
  // A client never sees less than the server's delay.
  expect(task.p50!).toBeGreaterThanOrEqual(minP50Ms);
  expect(task.p95!).toBeGreaterThanOrEqual(task.p50!);
  expect(task.p99!).toBeGreaterThanOrEqual(task.p95!);
  // Plausible, not timed: room for a loaded machine, while a unit slip (µs read as ms, ×1000) is still caught.
  expect(task.p99!).toBeLessThan(10_000);
}

/** The pids of live processes whose `/proc/<pid>/<file>` (NUL-separated) holds `entry`. */
export function processesWith(file: 'environ' | 'cmdline', entry: string): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') continue; // exited, not yet reaped
      if (readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0').includes(entry)) pids.push(Number(pid));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

/** The pids of processes started for a task: the agent gives every engine LOADPLANE_TASK_ID in its environment. */
export function processesOfTask(taskId: string): number[] {
  return processesWith('environ', `LOADPLANE_TASK_ID=${taskId}`);
}

/**
 * Cancels a running task (`processes` finds its engine, and must find it before: checked here, so the emptiness
 * afterwards means something): the task ends cancelled, no such process is left within `goneWithinMs`, and the task
 * stays cancelled.
 */
export async function cancelLeavesNothing(ts: TestService, token: string, id: string, processes: () => number[], goneWithinMs = 30_000): Promise<void> {
  expect(processes().length).toBeGreaterThan(0);
  expect((await ts.request(`/api/v1/tasks/${id}`, { method: 'DELETE', token })).status).toBe(204);
  expect((await waitForEnd(ts, token, id)).status).toBe('cancelled');
  await settle(() => processes().length === 0, goneWithinMs);
  expect(processes()).toEqual([]);
  expect((await readTask(ts, token, id)).status).toBe('cancelled');
}

/** Nearest-rank percentile of raw samples, as LatencyHistogram reads its buckets. */
export function rawPercentile(samples: number[], percent: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil((percent / 100) * sorted.length)) - 1]!;
}
