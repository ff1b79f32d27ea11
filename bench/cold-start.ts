/**
 * A newcomer's first start, timed: `npm start`'s entry on a fresh DATA_DIR (embedded PGlite, embedded IdP, the local
 * agent) to `/healthz` 200, then to the local agent online, then the README's first run (the http tool against
 * /healthz, 1 VU, one pass of its step) to its `done`. Then a second start on the same DATA_DIR (warm: the database
 * exists), and, side by side in the same round, a fresh start WITHOUT the prepared database template
 * (node_modules/.cache/loadplane/pglite moved aside: initdb and every migration, as before the template). Medians of
 * --rounds rounds.
 *
 *   ./node_modules/.bin/bun bench/cold-start.ts [--rounds 5]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, passwordGrant, repoRoot } from '../tests/helpers/service-process.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const rounds = at >= 0 ? Number(args[at + 1]) : 5;

async function until<T>(probe: () => Promise<T | null>): Promise<T> {
  for (;;) {
    const value = await probe().catch(() => null);
    if (value !== null) return value;
    await Bun.sleep(20);
  }
}

interface Start {
  child: ChildProcess;
  url: string;
  healthyMs: number;
}

async function start(dataDir: string): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['adapters/runtime/bun/main.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  await until(async () => ((await fetch(`${url}/healthz`)).status === 200 ? true : null));
  return { child, url, healthyMs: performance.now() - started };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

/** Milliseconds from `since` to the local agent online, and to the first run's done. */
async function firstRun(url: string, dataDir: string, since: number): Promise<{ agentMs: number; doneMs: number }> {
  const password = (await readFile(join(dataDir, 'initial-admin-password'), 'utf8')).trim();
  const clientSecret = (await readFile(join(dataDir, 'auth-client-secret'), 'utf8')).trim();
  const token = await passwordGrant(url, { username: 'admin', password, clientSecret });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  await until(async () => {
    const machines = (await (await fetch(`${url}/api/v1/machines`, { headers })).json()) as { status: string }[];
    return machines.some((m) => m.status === 'online') ? true : null;
  });
  const agentMs = performance.now() - since;
  const script = `steps:\n  - name: health\n    method: GET\n    url: ${url}/healthz\n`;
  const test = (await (await fetch(`${url}/api/v1/tests`, { method: 'POST', headers, body: JSON.stringify({ name: 'first', tool: 'http', script }) })).json()) as { id: string };
  const task = (await (await fetch(`${url}/api/v1/tasks`, { method: 'POST', headers, body: JSON.stringify({ testId: test.id }) })).json()) as { id: string };
  await until(async () => {
    const view = (await (await fetch(`${url}/api/v1/tasks/${task.id}`, { headers })).json()) as { status: string };
    if (view.status === 'failed' || view.status === 'cancelled') throw new Error(`the first run ended ${view.status}`);
    return view.status === 'completed' ? true : null;
  });
  return { agentMs, doneMs: performance.now() - since };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cold = { healthy: [] as number[], agent: [] as number[], done: [] as number[] };
const warm: number[] = [];
const untemplated: number[] = [];
const templates = join(repoRoot, 'node_modules/.cache/loadplane/pglite');

/** A fresh start to /healthz with the template moved aside (what it makes meanwhile is dropped, the template put back). */
async function withoutTemplate(): Promise<number> {
  const aside = `${templates}.bench-aside`;
  await rename(templates, aside);
  const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-cold-'));
  try {
    const started = await start(dataDir);
    await stop(started.child);
    return started.healthyMs;
  } finally {
    await rm(templates, { recursive: true, force: true });
    await rename(aside, templates);
    await rm(dataDir, { recursive: true, force: true });
  }
}

for (let round = 0; round < rounds; round++) {
  const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-cold-'));
  try {
    const since = performance.now();
    const first = await start(dataDir);
    const { agentMs, doneMs } = await firstRun(first.url, dataDir, since);
    cold.healthy.push(first.healthyMs);
    cold.agent.push(agentMs);
    cold.done.push(doneMs);
    await stop(first.child);
    const second = await start(dataDir);
    warm.push(second.healthyMs);
    await stop(second.child);
    untemplated.push(await withoutTemplate());
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  console.error(`round ${round + 1}: healthy ${cold.healthy.at(-1)!.toFixed(0)} ms, agent ${cold.agent.at(-1)!.toFixed(0)} ms, done ${cold.done.at(-1)!.toFixed(0)} ms, warm ${warm.at(-1)!.toFixed(0)} ms, no template ${untemplated.at(-1)!.toFixed(0)} ms`);
}
console.log(`Cold start, median of ${rounds} fresh DATA_DIRs\n`);
console.log('| step | median ms | min ms | max ms |\n|---|---|---|---|');
const row = (name: string, values: number[]) => console.log(`| ${name} | ${median(values).toFixed(0)} | ${Math.min(...values).toFixed(0)} | ${Math.max(...values).toFixed(0)} |`);
row('fresh DATA_DIR: start to /healthz 200', cold.healthy);
row('fresh DATA_DIR: start to the local agent online', cold.agent);
row("fresh DATA_DIR: start to the first run's done (http, one request)", cold.done);
row('second start, same DATA_DIR: to /healthz 200', warm);
row('fresh DATA_DIR without the prepared template: to /healthz 200', untemplated);
console.log(`\nratio, fresh start with the template / without: ${(median(cold.healthy) / median(untemplated)).toFixed(2)}`);
