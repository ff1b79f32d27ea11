/**
 * Shared pieces of the run benchmarks (dispatch, log path, k6 overhead): the real service and a real agent as separate
 * processes on loopback, an API client with timings, percentiles, per-process CPU from /proc, markdown tables.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { machineTicks, pidListeningOn } from '../cpu.ts';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentProcess, startAgentProcess } from '../../tests/helpers/agent-process.ts';
import { POSTGRES_SKIP_MESSAGE, startPostgresServer } from '../../tests/helpers/postgres-server.ts';
import { passwordGrant, type ServiceProcess, startServiceProcess } from '../../tests/helpers/service-process.ts';

export type DatabaseMode = 'pglite' | 'postgres';

/** Wall clock in epoch milliseconds with sub-millisecond resolution (same clock as `date +%s%N` on this machine). */
export const epochMs = () => performance.timeOrigin + performance.now();

const random = () => crypto.randomUUID().replaceAll('-', '');

export interface RunsService {
  service: ServiceProcess;
  url: string;
  /**
   * A second replica on the same PostgreSQL database (`replicas: 2`), or null. Its own DATA_DIR and port; the shared
   * secrets come from the database, so the tokens below work on it too.
   */
  replicaB: ServiceProcess | null;
  database: DatabaseMode;
  /**
   * The processes of this benchmark's own PostgreSQL cluster (postmaster and its children, backends come and go): not
   * every `postgres` on the machine, since other sessions' test clusters run beside it. Empty on PGlite.
   */
  postgresPids(): number[];
  /** An API token (all of the admin's permissions) for the benchmark client. */
  token: string;
  /** A token with machines:write + runs:write, for agents of the same workspace. */
  agentToken: string;
  /** A fresh JWT of the bootstrap admin (password grant), for calls in other workspaces (`X-Workspace-Id`). */
  adminJwt(): Promise<string>;
  /** JSON request with the client token; returns status, body and the client-side duration in ms. */
  api<T = unknown>(path: string, init?: { method?: string; json?: unknown }): Promise<{ status: number; body: T; ms: number; sentAt: number }>;
  stop(): Promise<void>;
}

/**
 * Boots the service as a real process on a free loopback port (PGlite under a temp DATA_DIR, or a fresh database on a
 * throwaway PostgreSQL cluster), with no local agent, and creates the client and agent tokens. `replicas: 2` (PostgreSQL
 * only) boots a second process on the same database once the first has migrated it.
 */
export async function startRunsService(options: { database?: DatabaseMode; env?: Record<string, string>; replicas?: 1 | 2 } = {}): Promise<RunsService> {
  const database = options.database ?? 'pglite';
  if (options.replicas === 2 && database !== 'postgres') throw new Error('two replicas need PostgreSQL (PGlite is one process)');
  const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-bench-runs-'));
  const dataDirB = options.replicas === 2 ? await mkdtemp(join(tmpdir(), 'loadplane-bench-runs-b-')) : null;
  const postgres = database === 'postgres' ? await startPostgresServer() : null;
  if (database === 'postgres' && !postgres) throw new Error(`PostgreSQL unavailable: ${POSTGRES_SKIP_MESSAGE}`);
  const password = `bench-${random()}`;
  const clientSecret = `bench-${random()}`;
  const envOf = (dir: string) => ({
    LOCAL_AGENT: 'false',
    LOG_LEVEL: 'warn',
    DATA_DIR: dir,
    AUTH_CLIENT_SECRET: clientSecret,
    BOOTSTRAP_ADMIN_USERNAME: 'admin',
    BOOTSTRAP_ADMIN_PASSWORD: password,
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...options.env,
  });
  let service: ServiceProcess | null = null;
  let replicaB: ServiceProcess | null = null;
  try {
    // One after the other: the first one migrates the fresh database and writes the shared secrets.
    service = await startServiceProcess({ env: envOf(dataDir), timeoutMs: 120_000 });
    if (dataDirB) replicaB = await startServiceProcess({ env: envOf(dataDirB), timeoutMs: 120_000 });
  } catch (error) {
    await service?.stop();
    await postgres?.stop();
    for (const dir of [dataDir, dataDirB]) if (dir) await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const url = service.url;
  const jwt = await passwordGrant(url, { username: 'admin', password, clientSecret });
  const createToken = async (name: string, scopes?: string[]) => {
    const response = await fetch(`${url}/api/v1/api-tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, ...(scopes ? { scopes } : {}) }),
    });
    if (response.status !== 201) throw new Error(`api token ${name}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { token: string }).token;
  };
  const token = await createToken('bench client');
  const agentToken = await createToken('bench agents', ['machines:write', 'runs:write']);

  const api: RunsService['api'] = async (path, init = {}) => {
    const sentAt = epochMs();
    const started = performance.now();
    const response = await fetch(`${url}/api/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}`, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    });
    const text = await response.text();
    const ms = performance.now() - started;
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: body as never, ms, sentAt };
  };

  let postmaster: number | null = null;
  const postgresPids = () => {
    if (!postgres) return [];
    postmaster ??= pidListeningOn(Number(new URL(postgres.url).port || 5432));
    return postmaster === null ? [] : [postmaster, ...childrenOf(postmaster)];
  };

  return {
    service,
    url,
    replicaB,
    postgresPids,
    database,
    token,
    agentToken,
    adminJwt: () => passwordGrant(url, { username: 'admin', password, clientSecret }),
    api,
    async stop() {
      await replicaB?.stop();
      await service!.stop();
      await postgres?.stop();
      for (const dir of [dataDir, dataDirB]) if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** bench/runs/agent-variant.ts as a process: the real agent with another log batch window (a diagnostic). */
function startVariantAgentProcess(options: { serverUrl: string; token: string; hostname: string; batchMs: number; extraArgs: string[] }): AgentProcess {
  return startAgentProcess({
    ...options,
    entry: join(import.meta.dir, 'agent-variant.ts'),
    extraArgs: ['--batch-ms', String(options.batchMs), ...options.extraArgs],
  });
}

/**
 * A real agent process registered with the service. `sandbox: 'off'` for benchmarks whose tool script lives in the
 * checkout and signals through /tmp, both of which the tool sandbox hides (its cost is measured by bench/sandbox.ts).
 */
export async function startBenchAgent(
  runs: RunsService,
  hostname: string,
  batchMs?: number,
  options: { sandbox?: 'on' | 'off' } = {},
): Promise<{ agent: AgentProcess; machineId: string }> {
  const extraArgs = ['--sandbox', options.sandbox ?? 'on'];
  const agent =
    batchMs === undefined
      ? startAgentProcess({ serverUrl: runs.url, token: runs.agentToken, hostname, extraArgs })
      : startVariantAgentProcess({ serverUrl: runs.url, token: runs.agentToken, hostname, batchMs, extraArgs });
  await agent.registered(1, 60_000);
  const machines = await runs.api<{ id: string; hostname: string; status: string }[]>('/machines');
  const machine = machines.body.find((m) => m.hostname === hostname);
  if (!machine) throw new Error(`agent ${hostname} registered but its machine is not listed: ${JSON.stringify(machines.body)}`);
  return { agent, machineId: machine.id };
}

export async function createTest(runs: RunsService, name: string, tool: 'custom' | 'k6', script: string): Promise<string> {
  const created = await runs.api<{ id: string }>('/tests', { method: 'POST', json: { name, tool, script } });
  if (created.status !== 201) throw new Error(`create test: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id;
}

export interface TaskRecord {
  id: string;
  status: string;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  requests_per_sec: number;
  total_requests: number;
  machine_ids: string[];
}

const terminal = new Set(['completed', 'failed', 'cancelled']);

/** Polls the task until it is final (every `pollMs`), or throws after `timeoutMs`. */
export async function waitForTask(runs: RunsService, id: string, timeoutMs: number, pollMs = 20): Promise<TaskRecord> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const { body } = await runs.api<TaskRecord>(`/tasks/${id}`);
    if (terminal.has(body.status)) return body;
    if (performance.now() > deadline) throw new Error(`task ${id} still ${body.status} after ${timeoutMs} ms`);
    await Bun.sleep(pollMs);
  }
}

/** Nearest-rank percentile of an unsorted list (copied and sorted here). */
/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
export const fmtInt = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '–');

export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map(String).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** utime + stime of one process in seconds (Linux /proc; USER_HZ 100); null once it is gone. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Pids of every process with this command name (`postgres`: the throwaway cluster's server and backends). */
export function pidsNamed(comm: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === comm) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** Pids whose parent is `parent` (Linux /proc). */
export function childrenOf(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** CPU of named processes (or groups of them) over a measured stretch, in percent of ONE core (the machine has nproc x 100). */
export function cpuMeter(pids: Record<string, number | number[] | null>) {
  const started = performance.now();
  const total = (pid: number | number[] | null) => {
    if (pid === null) return null;
    if (!Array.isArray(pid)) return processCpuSeconds(pid);
    // Processes of a group that exit meanwhile take their time with them: a group reading is a lower bound.
    return pid.reduce((sum, one) => sum + (processCpuSeconds(one) ?? 0), 0);
  };
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, total(pid)]));
  return () => {
    const wall = (performance.now() - started) / 1000;
    const usage: Record<string, number | null> = {};
    for (const [name, pid] of Object.entries(pids)) {
      const after = total(pid);
      const start = before[name];
      usage[name] = after === null || start === null || start === undefined ? null : Math.max(0, ((after - start) / wall) * 100);
    }
    return usage;
  };
}

export const cpuText = (usage: Record<string, number | null>) =>
  Object.entries(usage)
    .map(([name, value]) => `${name} ${value === null ? '–' : `${Math.round(value)}%`}`)
    .join(', ');

/** Flags of the form `--name value` and bare words, for the benchmark entry points. */
export function parseFlags(argv: string[], defaults: Record<string, string>): { flags: Record<string, string>; words: string[] } {
  const flags = { ...defaults };
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const name = arg.slice(2);
      if (!(name in defaults)) throw new Error(`unknown option ${arg}; known: ${Object.keys(defaults).map((k) => `--${k}`).join(' ')}`);
      flags[name] = argv[++i] ?? '';
    } else {
      words.push(arg);
    }
  }
  return { flags, words };
}


/** Whole-machine CPU over a stretch, in % of one core: process time, and interrupt time (loopback TCP is mostly softirq). */
export function machineMeter() {
  const before = machineTicks();
  return () => {
    const after = machineTicks();
    const total = after.total - before.total;
    const cores = availableParallelism();
    return {
      processes: total > 0 ? ((after.processes - before.processes) / total) * 100 * cores : 0,
      softirq: total > 0 ? ((after.interrupts - before.interrupts) / total) * 100 * cores : 0,
      // Time the hypervisor gave this VM's CPUs to someone else: the noise no process list shows.
      steal: total > 0 ? ((after.steal - before.steal) / total) * 100 * cores : 0,
    };
  };
}

/** Waits for the task's terminal event on its SSE stream (one idle connection instead of polling), then reads the record. */
export async function waitForDoneEvent(runs: RunsService, id: string, timeoutMs: number): Promise<TaskRecord> {
  const response = await fetch(`${runs.url}/api/v1/tasks/${id}/log-stream`, {
    headers: { authorization: `Bearer ${runs.token}` },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (response.status !== 200) throw new Error(`log-stream of ${id}: ${response.status} ${await response.text()}`);
  const decoder = new TextDecoder();
  let tail = '';
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    tail = (tail + decoder.decode(value, { stream: true })).slice(-200_000);
    if (tail.includes('"type":"done"') || tail.includes('"type":"error"')) {
      await reader.cancel();
      break;
    }
  }
  return (await runs.api<TaskRecord>(`/tasks/${id}`)).body;
}
