/**
 * A test script shown in the documentation, saved through the API and run to its end on the local agent: the made-up
 * hosts it names (shop.example.com, target.internal, localhost:8080) point at the example target, the load is 2 VUs
 * for 2 s, and the run must complete with requests and no errors. A tool no machine offers here (an engine not
 * installed, no sandbox) skips, and fails in CI.
 */
import { expect } from 'bun:test';
import { requireOrSkip } from '../helpers/k6-binary.ts';
import type { DocsWorld } from './docs-service.ts';
import { type Example, placeOf } from './markdown-examples.ts';

/** Origins the documentation makes up, or the service's own default address: the example target stands in for them. */
const exampleOrigin = /https?:\/\/(?:localhost:8080|[A-Za-z0-9.-]+\.(?:example\.com|example\.test|example|internal|test))(?::\d+)?/g;

export const pointAtTarget = (script: string, target: string) => script.replace(exampleOrigin, target);

interface TaskView {
  id: string;
  status: string;
  error: string | null;
  total_requests: number | null;
  error_rate: number | null;
}

async function json<T>(response: Response, status: number, what: string): Promise<T> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Why no online machine runs `tool` here, or null; asked once the local agent has registered (it may still be starting). */
async function toolMissing(world: DocsWorld, tool: string): Promise<string | null> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const machines = await json<{ status: string; tools: { tool: string }[] }[]>(await world.api('/api/v1/machines'), 200, 'machines');
    const online = machines.filter((machine) => machine.status !== 'offline' && machine.tools.length > 0);
    if (online.some((machine) => machine.tools.some((entry) => entry.tool === tool))) return null;
    if (online.length > 0) return `no online machine offers ${tool} (its engine is not installed, or there is no sandbox)`;
    if (Date.now() > deadline) return 'no machine came online within 60 s';
    await Bun.sleep(200);
  }
}

async function waitForEnd(world: DocsWorld, id: string, timeoutMs: number): Promise<TaskView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await json<TaskView>(await world.api(`/api/v1/tasks/${id}`), 200, 'task');
    if (['completed', 'failed', 'cancelled'].includes(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${id} did not end within ${timeoutMs} ms: ${JSON.stringify(task)}`);
    await Bun.sleep(200);
  }
}

/** One load config per world (2 VUs for 2 s), made at its first run. */
const configs = new WeakMap<DocsWorld, Promise<string>>();
const configOf = (world: DocsWorld) => {
  if (!configs.has(world)) {
    const body = { name: 'docs: 2 VUs, 2 s', vus: 2, duration: '2s' };
    configs.set(world, world.api('/api/v1/configs', { json: body }).then((r) => json<{ id: string }>(r, 201, 'config')).then((c) => c.id));
  }
  return configs.get(world)!;
};

export async function runTestScript(world: DocsWorld, example: Example, tool: string): Promise<void> {
  const place = placeOf(example);
  const script = pointAtTarget(example.code, world.target.url);
  const test = await json<{ id: string }>(await world.api('/api/v1/tests', { json: { name: place.slice(0, 200), tool, script } }), 201, `${place}: saving the ${tool} script`);
  if (!requireOrSkip(await toolMissing(world, tool), `${place} (${tool} run)`)) return;
  const before = world.target.served();
  const started = await json<{ id: string }>(await world.api('/api/v1/tasks', { json: { testId: test.id, configId: await configOf(world) } }), 202, `${place}: starting the run`);
  const task = await waitForEnd(world, started.id, 120_000);
  const log = async () => (await (await world.api(`/api/v1/tasks/${task.id}/log-stream?after=0`)).text()).slice(-3000);
  expect(task.status, `${place}: ${task.error}\n${await log()}`).toBe('completed');
  expect(task.total_requests!, place).toBeGreaterThan(0);
  expect(task.error_rate, `${place}\n${await log()}`).toBe(0);
  expect(world.target.served() - before, place).toBeGreaterThan(0);
}
