/**
 * What the engine integration tests (Locust, Artillery) share: a loopback target with known delays that counts what it
 * served, running a test through the API to its end, a second in-process agent, and the engine processes of a task.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { startNodeAgent } from '../../adapters/agent/start-node-agent.ts';
import { loadToolPluginsOf } from '../../adapters/composition/plugins.ts';
import { silentLogger } from '../../core/kernel/logger.ts';
import type { TestService } from './test-service.ts';

export interface Task {
  id: string;
  status: string;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  error_rate: number | null;
  total_requests: number | null;
}

/** `GET /delay/<ms>` answers after `ms` milliseconds; every answer is counted. */
export function startDelayTarget() {
  const target = { served: 0, server: null as ReturnType<typeof Bun.serve> | null };
  target.server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      target.served++;
      const delay = Number(/^\/delay\/(\d+)/.exec(new URL(request.url).pathname)?.[1] ?? 0);
      if (delay > 0) await Bun.sleep(delay);
      return new Response('ok');
    },
  });
  return { ...target, get served() { return target.served; }, url: `http://127.0.0.1:${target.server.port}`, stop: () => target.server?.stop(true) };
}

export async function createTest(ts: TestService, token: string, tool: string, script: string): Promise<Response> {
  return ts.request('/api/v1/tests', { method: 'POST', token, json: { name: `${tool} test`, tool, script } });
}

/** Starts a task of a new test (the answer to POST /tasks is returned when it is not 202). */
export async function startTask(
  ts: TestService,
  token: string,
  options: { tool: string; script: string; config?: Record<string, unknown>; machineIds?: string[] },
): Promise<{ id: string } | Response> {
  const created = await createTest(ts, token, options.tool, options.script);
  if (created.status !== 201) return created;
  const { id: testId } = (await created.json()) as { id: string };
  let configId: string | undefined;
  if (options.config) {
    const saved = await ts.request('/api/v1/configs', { method: 'POST', token, json: { name: `${options.tool} config`, ...options.config } });
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

export async function readTask(ts: TestService, token: string, id: string): Promise<Task> {
  return (await (await ts.request(`/api/v1/tasks/${id}`, { token })).json()) as Task;
}

export async function waitForEnd(ts: TestService, token: string, id: string, timeoutMs = 90_000): Promise<Task> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await readTask(ts, token, id);
    if (['completed', 'failed', 'cancelled'].includes(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${id} did not end: ${JSON.stringify(task)}`);
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

/** A second agent for the service's workspace owner (`jwt`), in this process, with the service's load tools. */
export async function startSecondAgent(ts: TestService, jwt: string, hostname: string) {
  const created = await ts.request('/api/v1/api-tokens', { method: 'POST', token: jwt, json: { name: hostname, scopes: ['machines:write', 'runs:write'] } });
  const agent = await startNodeAgent({
    serverUrl: ts.url,
    token: ((await created.json()) as { token: string }).token,
    logger: silentLogger,
    plugins: loadToolPluginsOf(ts.service),
    system: { hostname },
  });
  await agent.ready;
  return agent;
}

/** The pids of processes started for a task: the agent gives every engine LOADPLANE_TASK_ID in its environment. */
export function processesOfTask(taskId: string): number[] {
  const marker = `LOADPLANE_TASK_ID=${taskId}`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') continue; // exited, not yet reaped
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(marker)) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

/** Nearest-rank percentile of raw samples, as LatencyHistogram reads its buckets. */
export function rawPercentile(samples: number[], percent: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil((percent / 100) * sorted.length)) - 1]!;
}
