/**
 * Benchmark: authenticated `GET /api/v1/tests` (100 tests, JWT bearer) against `/healthz` of the same server, in one run,
 * on PGlite and on PostgreSQL; plus a check that the identity provider is not called per request.
 *
 *   ./node_modules/.bin/bun bench/auth-list.ts [pglite] [postgres] [reference] [idp] [--rounds 3] [--duration 10s] [--warmup 3s]
 *                                             [--threads 1] [--connections 64] [--quiet-wait 120] [--json results.json]
 *
 * Everything runs on loopback and is bounded in time. The service runs as a separate process, exactly as `npm start`.
 * Each round loads the endpoints one after the other (healthz, then the list and list?limit=1 with a JWT and with an API token), so a burst of outside load
 * hits one round rather than one endpoint; the table reports, per endpoint, the round with the median req/s.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POSTGRES_SKIP_MESSAGE, startPostgresServer } from '../tests/helpers/postgres-server.ts';
import { type CpuUsage, measureCpu, pidListeningOn, waitForQuietMachine } from './cpu.ts';
import { type BenchSettings, startFilledService } from './filled-service.ts';
import { checkIdpCalls, type IdpCheck } from './idp-calls.ts';
import { machineDescription } from './machine.ts';
import { runWrk, type WrkOptions, type WrkResult } from './wrk.ts';

interface Run {
  result: WrkResult;
  cpu: CpuUsage;
  /** Whether the machine was quiet before the warm-up (false: the wait for quiet timed out). */
  quietBefore: boolean;
}

interface Row {
  mode: string;
  endpoint: string;
  /** Every round's measured run, in order. */
  runs: Run[];
  /** The run with the median req/s among the clean runs (all runs when none was clean). */
  median: Run;
  bytesPerResponse: number;
}

/** More than a fifth of a core used by processes other than the server, postgres and wrk during the measured run. */
const noisyPercent = 20;
const isNoisy = (run: Run) => run.cpu.other !== null && run.cpu.other > noisyPercent;

/** `true`: a JWT from the identity provider; `'token'`: a personal API token (psk_) of the same user. */
type Auth = boolean | 'token';

// The `auth=token` query parameter only labels the row; the service ignores it.
const endpoints: ReadonlyArray<readonly [path: string, authenticated: Auth]> = [
  ['/healthz', false],
  ['/api/v1/tests', true],
  ['/api/v1/tests?auth=token', 'token'],
  ['/api/v1/tests?limit=1', true],
  ['/api/v1/tests?limit=1&auth=token', 'token'],
];

type Settings = BenchSettings & {
  rounds: number;
  /** Seconds to wait, before each warm-up, for other processes to leave the CPU alone (0: do not wait). */
  quietWait: number;
};

function parseArgs(argv: string[]) {
  const settings: Settings = { duration: '10s', warmup: '3s', threads: 1, connections: 64, rounds: 3, quietWait: 120 };
  const steps = new Set<string>();
  let json: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--duration') settings.duration = value();
    else if (arg === '--warmup') settings.warmup = value();
    else if (arg === '--threads') settings.threads = Number(value());
    else if (arg === '--connections') settings.connections = Number(value());
    else if (arg === '--rounds') settings.rounds = Math.max(1, Number(value()));
    else if (arg === '--quiet-wait') settings.quietWait = Number(value());
    else if (arg === '--json') json = value();
    else if (['pglite', 'postgres', 'reference', 'idp'].includes(arg)) steps.add(arg);
    else throw new Error(`unknown argument ${arg}; expected pglite, postgres, reference, idp or --rounds/--duration/--warmup/--threads/--connections/--quiet-wait/--json`);
  }
  if (steps.size === 0) for (const step of ['pglite', 'postgres', 'reference', 'idp']) steps.add(step);
  return { settings, steps, json };
}

/** Warm-up run (discarded), then the measured run, with the CPU used meanwhile by the server, postgres, wrk and the rest. */
async function measure(options: WrkOptions, settings: Settings, serverPid: number | null): Promise<Run> {
  let quietBefore = true;
  if (settings.quietWait > 0) {
    const quiet = await waitForQuietMachine({ maxSeconds: settings.quietWait });
    quietBefore = quiet.quiet;
    if (!quiet.quiet) console.error(`  the machine stayed busy for ${settings.quietWait}s (other processes); measuring anyway`);
    else if (quiet.waitedSeconds > 3) console.error(`  waited ${Math.round(quiet.waitedSeconds)}s for other processes to go quiet`);
  }
  await runWrk({ ...options, duration: settings.warmup });
  const stop = measureCpu(serverPid);
  const result = await runWrk(options);
  return { result, cpu: stop(result.wrkCpuSeconds), quietBefore };
}

interface Target {
  mode: string;
  url: string;
  pid: number | null;
  endpoints: ReadonlyArray<readonly [path: string, authenticated: Auth]>;
  token: () => Promise<string>;
  /** A personal API token for the `'token'` endpoints. */
  apiToken?: string;
  /** For the error message when a run answers non-2xx. */
  output: () => string;
}

async function benchmarkTarget(target: Target, settings: Settings): Promise<Row[]> {
  const { mode, endpoints } = target;
  if (target.pid === null) console.error('  (could not find the server pid: no server CPU figures)');
  const runs = new Map<string, Run[]>(endpoints.map(([path]) => [path, []]));
  for (let round = 1; round <= settings.rounds; round++) {
    for (const [path, authenticated] of endpoints) {
      // A fresh token per run: they live 5 minutes, and the first request of each run verifies it once.
      const bearer = authenticated === 'token' ? target.apiToken : authenticated ? await target.token() : null;
      const headers = bearer ? { authorization: `Bearer ${bearer}` } : undefined;
      const options: WrkOptions = {
        url: `${target.url}${path}`,
        threads: settings.threads,
        connections: settings.connections,
        duration: settings.duration,
        headers,
      };
      const run = await measure(options, settings, target.pid);
      const { result, cpu } = run;
      if (result.non2xx > 0) {
        throw new Error(
          `${mode} ${path}: ${result.non2xx} of ${result.requests} responses were not 2xx/3xx; server output:\n${target.output().slice(-4000)}`,
        );
      }
      const errors = Object.values(result.socketErrors).reduce((a, b) => a + b, 0);
      const noisy = isNoisy(run) ? `  (noisy: ${Math.round(cpu.other ?? 0)}% of a core used by other processes)` : '';
      console.error(
        `  round ${round}/${settings.rounds} ${path}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.latency.p99} ms${errors ? `, socket errors ${JSON.stringify(result.socketErrors)}` : ''}${noisy}`,
      );
      runs.get(path)!.push(run);
    }
  }
  return endpoints.map(([path]) => {
    const list = runs.get(path)!;
    // Other people's processes share this machine: the median is taken over the clean runs when there are any.
    const clean = list.filter((run) => !isNoisy(run));
    const sorted = [...(clean.length > 0 ? clean : list)].sort((a, b) => a.result.requestsPerSecond - b.result.requestsPerSecond);
    const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
    return { mode, endpoint: path, runs: list, median, bytesPerResponse: median.result.bytesRead / Math.max(1, median.result.requests) };
  });
}

/**
 * The ceiling for any implementation of the list on this machine: a bare Bun.serve (in this process) answering the
 * service's exact list JSON from memory, no auth, no database, no framework; with its own /healthz beside it.
 */
async function benchmarkReference(listBody: string, settings: Settings): Promise<Row[]> {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request) =>
      new URL(request.url).pathname === '/list-body'
        ? new Response(listBody, { headers: { 'content-type': 'application/json' } })
        : Response.json({ status: 'ok' }),
  });
  try {
    return await benchmarkTarget(
      {
        mode: 'bare Bun.serve (reference)',
        url: `http://127.0.0.1:${server.port}`,
        pid: process.pid,
        endpoints: [
          ['/healthz', false],
          ['/list-body', false],
        ],
        token: async () => '',
        output: () => '',
      },
      settings,
    );
  } finally {
    await server.stop(true);
  }
}

async function runMode(mode: 'pglite' | 'postgres', settings: Settings): Promise<{ rows: Row[]; listBody: string } | string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-bench-'));
  const postgres = mode === 'postgres' ? await startPostgresServer() : null;
  try {
    if (mode === 'postgres' && !postgres) return `PostgreSQL skipped: ${POSTGRES_SKIP_MESSAGE}`;
    const { service, token, listBody } = await startFilledService({ DATA_DIR: dataDir, ...(postgres ? { DATABASE_URL: postgres.url } : {}) });
    try {
      const created = await fetch(`${service.url}/api/v1/api-tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bench' }),
      });
      if (created.status !== 201) throw new Error(`creating the API token: ${created.status} ${await created.text()}`);
      const apiToken = ((await created.json()) as { token: string }).token;
      const rows = await benchmarkTarget(
        {
          mode: mode === 'pglite' ? 'PGlite' : 'PostgreSQL',
          url: service.url,
          pid: pidListeningOn(service.port),
          endpoints,
          token,
          apiToken,
          output: service.output,
        },
        settings,
      );
      const warnings = service.output().trim();
      if (warnings) console.error(`  service output (LOG_LEVEL=warn):\n${warnings.slice(-2000)}`);
      return { rows, listBody };
    } finally {
      await service.stop();
    }
  } finally {
    await postgres?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (n: number) => `${fmt(n, n < 10 ? 2 : 1)} ms`;
const pct = (n: number | null) => (n === null ? 'n/a' : `${fmt(n)}%`);

function table(rows: Row[]): string {
  const lines = [
    '| mode | endpoint | req/s (median) | all rounds, req/s | p50 | p99 | ratio vs /healthz | bytes/response | CPU: server / postgres / wrk / softirq / other |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const healthz = rows.find((r) => r.mode === row.mode && r.endpoint === '/healthz')!;
    const { result, cpu } = row.median;
    const ratio = row.endpoint === '/healthz' ? '1.000x' : `${(result.requestsPerSecond / healthz.median.result.requestsPerSecond).toFixed(3)}x`;
    const rounds = row.runs.map((run) => `${fmt(run.result.requestsPerSecond)}${isNoisy(run) ? '*' : ''}`).join(' / ');
    const server = row.mode.startsWith('bare') ? `${pct(cpu.server)} (incl. driver)` : pct(cpu.server);
    const cpuText = `${server} / ${row.mode === 'PostgreSQL' ? pct(cpu.postgres) : '-'} / ${pct(cpu.wrk)} / ${pct(cpu.softirq)} / ${pct(cpu.other)}`;
    lines.push(
      `| ${row.mode} | \`${row.endpoint}\` | ${fmt(result.requestsPerSecond)} | ${rounds} | ${ms(result.latency.p50)} | ${ms(result.latency.p99)} | ${ratio} | ${fmt(row.bytesPerResponse)} | ${cpuText} |`,
    );
  }
  return lines.join('\n');
}

async function main() {
  const { settings, steps, json } = parseArgs(Bun.argv.slice(2));
  const machine = machineDescription();
  console.log(`## Authenticated list vs /healthz\n\n${machine.markdown}\n`);
  console.log(
    `wrk \`-t${settings.threads} -c${settings.connections} -d${settings.duration} --latency\` after a ${settings.warmup} warm-up run, ${settings.rounds} round(s) of the endpoints; server, wrk (and PostgreSQL) share the ${machine.cores} cores. The table shows, per endpoint, the run with the median req/s among the clean runs (\\* marks a noisy run: over ${noisyPercent}% of a core used by other processes); CPU is in percent of one core over that run, softirq being the loopback TCP stack.\n`,
  );
  const rows: Row[] = [];
  const notes: string[] = [];
  let listBody: string | null = null;
  for (const mode of ['pglite', 'postgres'] as const) {
    if (!steps.has(mode)) continue;
    console.error(`${mode}: starting the service`);
    const outcome = await runMode(mode, settings);
    if (typeof outcome === 'string') notes.push(outcome);
    else {
      rows.push(...outcome.rows);
      listBody ??= outcome.listBody;
    }
  }
  if (steps.has('reference')) {
    if (listBody === null) notes.push('Reference skipped: it serves the list body captured from a pglite or postgres run.');
    else {
      console.error('reference: a bare Bun.serve answering the same list body from memory');
      rows.push(...(await benchmarkReference(listBody, settings)));
    }
  }
  let idp: IdpCheck | null = null;
  if (steps.has('idp')) {
    console.error('idp: counting identity-provider requests during an authenticated wrk run');
    idp = await checkIdpCalls(settings);
  }

  if (rows.length > 0) console.log(`${table(rows)}\n`);
  for (const note of notes) console.log(`${note}\n`);
  if (idp) console.log(`${idp.markdown}\n`);
  if (rows.length > 0) {
    console.log('wrk commands (the bearer token elided):\n');
    for (const command of new Set(rows.map((r) => r.median.result.command.replace(/:\d+\//, ':<port>/')))) console.log(`    ${command}`);
  }
  if (json) {
    const strip = (run: Run) => ({ ...run, result: { ...run.result, raw: undefined } });
    const out = rows.map((row) => ({ ...row, runs: row.runs.map(strip), median: strip(row.median) }));
    await writeFile(json, JSON.stringify({ machine, settings, rows: out, notes, idp }, null, 2));
    console.error(`results written to ${json}`);
  }
  if (idp && !idp.ok) {
    console.error('FAILED: the identity provider was called during the authenticated run');
    process.exit(1);
  }
}

if (import.meta.main) {
  main().catch((error) => {
    console.error(`auth-list benchmark FAILED: ${(error as Error)?.stack ?? error}`);
    process.exit(1);
  });
}
