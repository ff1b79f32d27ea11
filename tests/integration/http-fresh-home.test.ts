/**
 * The `http` tool needs nothing but `npm ci`, and no sandbox: the service started as on a fresh machine, HOME an empty
 * directory (no ~/.cache/loadplane), PATH an empty directory (no engine, not even sh), and bubblewrap hidden from it
 * altogether (its binaries masked in a mount namespace of the service's own, since the sandbox also looks in /usr/bin),
 * offers `http` on its local agent, and only `http`, and runs a native-steps test to completion against a local
 * target: total_requests is the target's count, and the `expect` failures are counted per step. A k6 test there waits,
 * and its `pending_reason` names k6 and says how to install it, in the local agent's own words.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../helpers/process-probes.ts';
import { freePort, passwordGrant, type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';
import { readSse } from '../helpers/stream-clients.ts';

/** Every bubblewrap the sandbox could find (PATH, /usr/bin, /bin), each real file once. */
const bwraps = [...new Set([Bun.which('bwrap'), '/usr/bin/bwrap', '/bin/bwrap'].filter((path): path is string => !!path && existsSync(path)).map((path) => realpathSync(path)))];

/**
 * Runs the service in a mount namespace of its own where each bwrap is /dev/null (not an executable file): nothing
 * the service starts can find one. unshare execs (no monitor process), so the service's pid is the one signalled.
 */
function hidingBubblewrap(): string[] {
  if (bwraps.length === 0) return [];
  const asRoot = process.getuid?.() === 0;
  const masks = bwraps.map((path) => `/usr/bin/mount --bind /dev/null '${path}'`).join(' && ');
  const wrap = ['/usr/bin/unshare', '--mount', ...(asRoot ? [] : ['--user', '--map-root-user']), '/bin/sh', '-c', `${masks} && exec "$@"`, 'sh'];
  // Where no mount namespace can be made (a container that forbids them), bubblewrap cannot isolate either: the service
  // then finds it unusable by itself, which the test's checks of the start log and the machine's tools still prove.
  return Bun.spawnSync([...wrap, '/bin/true']).exitCode === 0 ? wrap : [];
}

let service: ServiceProcess;
const dirs: string[] = [];
let admin = '';
const served = new Map<string, number>();
const target = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(request) {
    const path = new URL(request.url).pathname;
    served.set(path, (served.get(path) ?? 0) + 1);
    if (path === '/missing') return new Response('not here', { status: 404 });
    return new Response(path === '/hello' ? 'hello, fresh machine' : 'something else');
  },
});
const count = (path: string) => served.get(path) ?? 0;

type Machine = { id: string; name: string; status: string; tools: { tool: string; version: string | null }[] };

/** GET, or POST when given a body; DELETE when asked. */
async function api<T>(path: string, json?: unknown, method?: 'DELETE'): Promise<{ status: number; body: T }> {
  const response = await fetch(`${service.url}/api/v1${path}`, {
    method: method ?? (json === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** The workspace's machines once one is online (the local agent registers shortly after the service listens). */
async function onlineMachines(): Promise<Machine[]> {
  let machines: Machine[] = [];
  await waitFor(async () => (machines = (await api<Machine[]>('/machines')).body).some((machine) => machine.status === 'online'), 60_000, () => `the local agent online:\n${service.output()}`);
  return machines;
}

beforeAll(async () => {
  const [home, emptyPath, dataDir] = await Promise.all(['home', 'path', 'data'].map((name) => mkdtemp(join(tmpdir(), `loadplane-fresh-${name}-`))));
  dirs.push(home!, emptyPath!, dataDir!);
  const port = await freePort();
  service = await startServiceProcess({
    port,
    wrap: hidingBubblewrap(),
    env: { HOME: home!, PATH: emptyPath!, DATA_DIR: dataDir!, LOCAL_AGENT: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` },
  });
  const password = (await readFile(join(dataDir!, 'initial-admin-password'), 'utf8')).trim();
  const clientSecret = (await readFile(join(dataDir!, 'auth-client-secret'), 'utf8')).trim();
  admin = await passwordGrant(service.url, { username: 'admin', password, clientSecret });
}, 120_000);

afterAll(async () => {
  await service?.stop();
  target.stop(true);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

test('a fresh machine without engines or sandbox offers http, and only http, and runs a native-steps test', async () => {
  const machines = await onlineMachines();
  expect(machines.map((machine) => [machine.status, machine.tools]), service.output()).toEqual([['online', [{ tool: 'http', version: null }]]]);
  // Truthful at start: no sandbox here, so only the tool that runs no author code is offered.
  expect(service.output()).toContain("tools refused: runs cannot be isolated on this machine, so this agent offers only http (no code of the test's author runs)");
  expect(await readdir(dirs[0]!)).not.toContain('.cache');

  const script = [
    `base_url: http://127.0.0.1:${target.port}`,
    'steps:',
    '  - {name: greeting, method: GET, url: /hello, expect: {body_contains: fresh}}',
    '  - {name: other text, method: GET, url: /other, expect: {body_contains: fresh}}',
    '  - {name: gone, method: GET, url: /missing}',
    '  - {name: gone as expected, method: DELETE, url: /missing, expect: {status: 404}}',
  ].join('\n');
  const created = await api<{ id: string }>('/tests', { name: 'fresh machine', tool: 'http', script });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const config = await api<{ id: string }>('/configs', { name: 'two users', vus: 2, duration: '2s' });
  expect(config.status).toBe(201);
  const started = await api<{ id: string }>('/tasks', { testId: created.body.id, configId: config.body.id });
  expect(started.status).toBe(202);

  const stream = await fetch(`${service.url}/api/v1/tasks/${started.body.id}/log-stream?after=0`, { headers: { authorization: `Bearer ${admin}` } });
  const { events } = await readSse(stream, (seen) => seen.at(-1)?.data.type === 'done');
  const log = events.filter((event) => event.data.type === 'log').map((event) => String(event.data.text));
  const task = (events.at(-1)!.data as { task: { status: string; total_requests: number; error_rate: number } }).task;
  expect(task.status, `${log.join('\n')}\n${service.output()}`).toBe('completed');

  const total = [...served.values()].reduce((sum, value) => sum + value, 0);
  expect(count('/hello')).toBeGreaterThan(2);
  expect(task.total_requests).toBe(total);
  const row = (name: string) => log.find((line) => line.startsWith(`${name} `))?.trim().split(/\s{2,}/).slice(1, 6).map(Number);
  const other = count('/other');
  expect(row('greeting')).toEqual([count('/hello'), 0, 0, 0, 0]);
  expect(row('other text')).toEqual([other, other, 0, 0, other]);
  // GET and DELETE /missing are two steps on one path: the target counts both under /missing.
  const gone = row('gone')!;
  const goneAsExpected = row('gone as expected')!;
  expect(gone[0]! + goneAsExpected[0]!).toBe(count('/missing'));
  expect(gone.slice(1)).toEqual([gone[0], gone[0], 0, 0]);
  expect(goneAsExpected.slice(1)).toEqual([0, 0, 0, 0]);
  // The service gives error_rate to six decimals.
  expect(task.error_rate).toBeCloseTo((other + gone[0]!) / total, 5);
}, 120_000);

test('a k6 test on that machine waits, its pending_reason naming k6 and how to install it; cancelled, it ends', async () => {
  const machine = (await onlineMachines()).find((m) => m.status === 'online')!;
  const helloBefore = count('/hello');
  const script = `import http from 'k6/http';\nexport default function () { http.get('http://127.0.0.1:${target.port}/hello'); }\n`;
  const created = await api<{ id: string }>('/tests', { name: 'fresh machine k6', tool: 'k6', script });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const started = await api<{ id: string; status: string }>('/tasks', { testId: created.body.id });
  // Accepted and left waiting: a run for a tool no machine offers is not refused.
  expect(started.status).toBe(202);

  // The reason quotes what the agent told the service in its hello: where it looked for k6 (HOME and PATH empty
  // here) and the install command; the dispatcher may need a pass to get there, so it is waited for.
  type Task = { status: string; pending_reason: string | null };
  const read = async () => (await api<Task>(`/tasks/${started.body.id}`)).body;
  const prefix = `no online machine offers k6: on ${machine.name}, k6 not found (`;
  let seen = '';
  await waitFor(
    async () => {
      const task = await read();
      seen = JSON.stringify(task);
      return task.status === 'pending' && !!task.pending_reason?.startsWith(prefix);
    },
    60_000,
    () => `a pending_reason naming k6 (the task: ${seen})\n${service.output()}`,
  );
  const task = await read();
  expect(task.status).toBe('pending');
  expect(task.pending_reason).toContain('no k6 on PATH');
  expect(task.pending_reason).toContain('install it with `bash scripts/install-engines k6`, or set K6_BIN to its path');
  // Nothing was sent to the target for it.
  expect(count('/hello')).toBe(helloBefore);

  // Cancelled, it ends with no reason left, so the service has nothing waiting when it stops.
  expect((await api(`/tasks/${started.body.id}`, undefined, 'DELETE')).status).toBe(204);
  expect((await api<Task>(`/tasks/${started.body.id}`)).body).toMatchObject({ status: 'cancelled', pending_reason: null });
}, 120_000);
