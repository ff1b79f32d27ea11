/**
 * The log path, end to end: a custom-tool script prints lines carrying their emit time; the agent (a separate process)
 * reads them, batches them over its WebSocket, the service stores and fans them out over SSE to 1, 100 and 1000
 * subscribers, which run in a separate process on real sockets and are connected before the first line.
 *
 *   ./node_modules/.bin/bun bench/log-path.ts [pglite|postgres] [--flood 1:200000,100:20000,1000:5000]
 *       [--paced 1:1000,100:1000,1000:20,1000:200] [--paced-seconds 10] [--bytes 100] [--timeout 180]
 *       [--max-stored N] [--profile DIR] [--quiet-wait 90] [--agent-batch-ms N] [--replicas 2 [--rounds 2]]
 *
 * flood: the generator writes as fast as the pipe takes lines (throughput; latency then includes queueing).
 * paced: a fixed rate well inside capacity (line latency without a backlog). Every scenario is bounded by --timeout.
 * --max-stored sets MAX_LOG_LINES_PER_RUN (a variant without most database writes); --profile runs the service under
 * Bun's CPU profiler and keeps the profiles in DIR. Before each scenario the benchmark waits up to --quiet-wait seconds
 * for the shared machine to be quiet (0: do not wait). --agent-batch-ms runs bench/runs/agent-variant.ts (the real agent
 * with another log batch window than the product's 50 ms) to show what the window costs in latency.
 *
 * --replicas 2 (PostgreSQL): two service processes on one database, the agent on A; every scenario runs with the
 * subscribers on A (the single-replica figure; B is up but idle) and with the subscribers on B (lines stored by A reach
 * B through NOTIFY wake-ups and the stored rows), --rounds times, alternating which goes first, and the output ends with
 * the ratio B / A of the medians.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitForQuietMachine } from './cpu.ts';
import { machineDescription } from './machine.ts';
import { summarizeWindow, windowMarkdown } from './runs/profile-window.ts';
import {
  cpuMeter,
  cpuText,
  createTest,
  type DatabaseMode,
  epochMs,
  fmt,
  fmtInt,
  machineMeter,
  markdownTable,
  parseFlags,
  type RunsService,
  startBenchAgent,
  startRunsService,
  waitForTask,
} from './runs/harness.ts';

const { flags, words } = parseFlags(Bun.argv.slice(2), {
  flood: '1:200000,100:20000,1000:5000',
  paced: '1:1000,100:1000,1000:20,1000:200',
  'paced-seconds': '10',
  bytes: '100',
  timeout: '180',
  'max-stored': '',
  profile: '',
  'quiet-wait': '90',
  'agent-batch-ms': '',
  replicas: '1',
  rounds: '1',
});
const replicas = Number(flags.replicas) as 1 | 2;
if (replicas !== 1 && replicas !== 2) throw new Error(`--replicas is 1 or 2, not ${flags.replicas}`);
const rounds = replicas === 2 ? Math.max(1, Number(flags.rounds)) : 1;
const quietWait = Number(flags['quiet-wait']);
const database = (words[0] ?? (replicas === 2 ? 'postgres' : 'pglite')) as DatabaseMode;
if (database !== 'pglite' && database !== 'postgres') throw new Error(`unknown database ${database}`);
if (replicas === 2 && database !== 'postgres') throw new Error('--replicas 2 needs postgres: replicas share a PostgreSQL database');
const bun = resolve(process.execPath);
const generator = resolve(import.meta.dir, 'runs/line-generator.ts');
const clientsScript = resolve(import.meta.dir, 'runs/sse-clients.ts');
const bytes = Number(flags.bytes);
const timeoutMs = Number(flags.timeout) * 1000;

interface Scenario {
  kind: 'flood' | 'paced';
  subscribers: number;
  lines: number;
  rate: number;
}

const pairs = (text: string) =>
  text
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split(':').map(Number) as [number, number]);
const scenarios: Scenario[] = [
  ...pairs(flags.flood).map(([subscribers, lines]) => ({ kind: 'flood' as const, subscribers, lines, rate: 0 })),
  ...pairs(flags.paced).map(([subscribers, rate]) => ({ kind: 'paced' as const, subscribers, lines: rate * Number(flags['paced-seconds']), rate })),
];

interface ClientResult {
  subscribers: number;
  connected: number;
  failed: number;
  timedOut: boolean;
  complete: number;
  shortWithDone: number;
  withDone: number;
  cutoff: number;
  outOfOrder: number;
  linesMin: number;
  linesTotal: number;
  rateMin: number;
  rateP50: number;
  rateMax: number;
  firstAt: number;
  lastAt: number;
  latency: { p50: number; p90: number; p99: number; max: number; samples: number };
  loopLag: { p50: number; p99: number; max: number };
  gaps: string[];
  errors: string[];
  cpuMs: number;
  cpuPercent: number;
  wallMs: number;
}

/** The generator alone, into /dev/null and into a pipe: the ceiling of what the script side can produce. */
async function generatorCeiling(lines: number) {
  const dir = await mkdtemp(join(tmpdir(), 'loadplane-gen-'));
  try {
    const run = async (shell: string) => {
      const stats = join(dir, 'stats.json');
      const proc = Bun.spawn(['sh', '-c', shell.replace('STATS', stats)], { stdout: 'ignore', stderr: 'inherit' });
      await proc.exited;
      const parsed = JSON.parse(readFileSync(stats, 'utf8')) as { lines: number; ms: number };
      return parsed.lines / (parsed.ms / 1000);
    };
    const devNull = await run(`'${bun}' '${generator}' --lines ${lines} --bytes ${bytes} --stats STATS > /dev/null`);
    const pipe = await run(`'${bun}' '${generator}' --lines ${lines} --bytes ${bytes} --stats STATS | cat > /dev/null`);
    return { devNull, pipe };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function* stdoutLines(stream: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let split: number;
    while ((split = buffer.indexOf('\n')) >= 0) {
      yield buffer.slice(0, split);
      buffer = buffer.slice(split + 1);
    }
  }
}

/** Where the subscribers connect: A holds the agent; B is the second replica (its lines come through the database). */
type Side = 'A' | 'B';

async function runScenario(runs: RunsService, agentPid: number, scenario: Scenario, dir: string, side: Side = 'A') {
  const subscribersUrl = side === 'A' ? runs.url : runs.replicaB!.url;
  const quiet = quietWait > 0 ? await waitForQuietMachine({ maxSeconds: quietWait }) : null;
  // One go file per scenario: a leftover one would let the next generator start before its subscribers connect.
  const name = `${scenario.kind}-${scenario.subscribers}-${scenario.rate}-${crypto.randomUUID()}`;
  const goFile = join(dir, `go-${name}`);
  const statsFile = join(dir, `stats-${name}.json`);
  const script = `#!/bin/sh\nexec '${bun}' '${generator}' --lines ${scenario.lines} --rate ${scenario.rate} --bytes ${bytes} --go '${goFile}' --stats '${statsFile}'\n`;
  const testId = await createTest(runs, `log path ${scenario.kind} ${scenario.subscribers}`, 'custom', script);
  const post = await runs.api<{ id: string }>('/tasks', { method: 'POST', json: { testId } });
  if (post.status !== 202) throw new Error(`POST /tasks: ${post.status} ${JSON.stringify(post.body)}`);
  const taskId = post.body.id;

  const clients = Bun.spawn(
    [bun, clientsScript, '--url', subscribersUrl, '--task', taskId, '--token', runs.token, '--count', String(scenario.subscribers), '--lines', String(scenario.lines), '--timeout', String(timeoutMs)],
    { stdout: 'pipe', stderr: 'inherit', env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(Math.max(256, scenario.subscribers + 16)) } },
  );
  let meter: (() => Record<string, number | null>) | null = null;
  let cpuAtEnd: Record<string, number | null> | null = null;
  let goAt = 0;
  let machine: (() => { processes: number; softirq: number }) | null = null;
  let machineAtEnd: { processes: number; softirq: number } | null = null;
  let endAt = 0;
  let result: ClientResult | null = null;
  let connectMs = 0;
  const connectStarted = performance.now();
  const guard = setTimeout(() => clients.kill(), timeoutMs + 30_000);
  for await (const line of stdoutLines(clients.stdout)) {
    const message = JSON.parse(line) as { event: string } & Record<string, unknown>;
    if (message.event === 'connected') {
      connectMs = performance.now() - connectStarted;
      if ((message.failed as number) > 0) console.error(`  ${message.failed} subscribers failed to connect`);
      goAt = epochMs();
      machine = machineMeter();
      meter = cpuMeter({
        server: runs.service.pid,
        ...(runs.replicaB ? { serverB: runs.replicaB.pid } : {}),
        agent: agentPid,
        ...(runs.database === 'postgres' ? { postgres: runs.postgresPids() } : {}),
      });
      writeFileSync(goFile, '');
    } else if (message.event === 'result') {
      result = message as unknown as ClientResult;
      cpuAtEnd = meter?.() ?? {};
      machineAtEnd = machine?.() ?? null;
      endAt = epochMs();
    }
  }
  clearTimeout(guard);
  await clients.exited;
  const cpu = cpuAtEnd ?? meter?.() ?? {};
  if (!existsSync(goFile)) writeFileSync(goFile, ''); // the clients never connected: let the run end anyway
  const task = await waitForTask(runs, taskId, timeoutMs);
  if (!result) throw new Error(`the subscribers process gave no result (exit ${clients.exitCode})`);
  const stats = existsSync(statsFile) ? (JSON.parse(readFileSync(statsFile, 'utf8')) as { lines: number; ms: number; cpuMs: number; firstAt: number; lastAt: number }) : null;
  const wall = stats ? (Math.max(result.lastAt, stats.lastAt) - stats.firstAt) / 1000 : NaN;
  if (stats) cpu.generator = (stats.cpuMs / 1000 / wall) * 100;
  cpu.subscribers = result.cpuPercent; // self-reported: the process is gone by now
  if (machineAtEnd) {
    cpu.softirq = machineAtEnd.softirq;
    // What else ran on the machine meanwhile (other people's work, this driver): large means a noisy scenario.
    cpu.other = Math.max(0, machineAtEnd.processes - ['server', 'serverB', 'agent', 'generator', 'subscribers', 'postgres'].reduce((sum, key) => sum + (cpu[key] ?? 0), 0));
  }
  return { scenario, result, task, stats, cpu, connectMs, quiet, window: [goAt, endAt] as const };
}

interface Measured {
  scenario: Scenario;
  side: Side;
  result: ClientResult;
  cpu: Record<string, number | null>;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Replica B against the single-replica figure (subscribers on A), per scenario: medians over the rounds and B / A. */
function ratioMarkdown(measured: Measured[]): string[] {
  const rows: string[][] = [];
  const seen = new Set<Scenario>();
  for (const { scenario } of measured) {
    if (seen.has(scenario)) continue;
    seen.add(scenario);
    const of = (side: Side) => measured.filter((m) => m.scenario === scenario && m.side === side);
    const a = of('A');
    const b = of('B');
    const label = `${scenario.kind}, ${fmtInt(scenario.subscribers)} subscriber(s), ${fmtInt(scenario.lines)} lines${scenario.rate ? ` @ ${fmtInt(scenario.rate)}/s` : ''}`;
    const every = (list: Measured[]) =>
      `${list.filter((m) => m.result.complete === scenario.subscribers && m.result.withDone === scenario.subscribers && !m.result.timedOut).length}/${list.length} runs` +
      ` (${list.map((m) => `${m.result.complete}/${scenario.subscribers}`).join(', ')})`;
    const metric = (name: string, pick: (r: ClientResult) => number, digits: number | 'int') => {
      const ma = median(a.map((m) => pick(m.result)));
      const mb = median(b.map((m) => pick(m.result)));
      const show = (v: number, list: Measured[]) =>
        `${digits === 'int' ? fmtInt(v) : fmt(v, digits)}${list.length > 1 ? ` (${list.map((m) => (digits === 'int' ? fmtInt(pick(m.result)) : fmt(pick(m.result), digits))).join(', ')})` : ''}`;
      rows.push([label, name, show(ma, a), show(mb, b), fmt(mb / ma, 2)]);
    };
    if (scenario.kind === 'flood') metric('delivered lines/s per subscriber (p50 over subscribers)', (r) => r.rateP50, 'int');
    metric('line latency p50 ms', (r) => r.latency.p50, 1);
    metric('line latency p99 ms', (r) => r.latency.p99, 1);
    metric('line latency max ms', (r) => r.latency.max, 1);
    rows.push([label, 'every subscriber got every line, in order, and the end', every(a), every(b), '']);
  }
  return [
    `### Replica B against the single replica (median of ${rounds} round(s); each round's values in brackets)`,
    '',
    markdownTable(['scenario', 'measure', 'subscribers on A (single-replica figure)', 'subscribers on B, agent on A', 'B / A'], rows),
  ];
}

async function main() {
  const machine = machineDescription();
  const dir = await mkdtemp(join(tmpdir(), 'loadplane-logpath-'));
  const env: Record<string, string> = {};
  if (flags['max-stored']) env.MAX_LOG_LINES_PER_RUN = flags['max-stored'];
  if (flags.profile) {
    mkdirSync(flags.profile, { recursive: true });
    env.BUN_OPTIONS = `--cpu-prof --cpu-prof-md --cpu-prof-dir=${resolve(flags.profile)}`;
  }
  const quiet = quietWait > 0 ? await waitForQuietMachine({ maxSeconds: quietWait * 2 }) : { quiet: false, waitedSeconds: 0 };
  // Other people's work shares this machine: each scenario waits again for a quiet moment (see runScenario).
  console.error('log-path: generator ceiling');
  const ceiling = await generatorCeiling(500_000);
  const runs = await startRunsService({ database, env, replicas });
  const agentBatchMs = flags['agent-batch-ms'] ? Number(flags['agent-batch-ms']) : undefined;
  // The generator runs from the checkout and waits for a go file in /tmp: hidden from a sandboxed tool (see harness).
  const { agent } = await startBenchAgent(runs, `logpath-${database}`, agentBatchMs, { sandbox: 'off' });
  const rows: string[][] = [];
  const windows: { title: string; from: number; to: number }[] = [];
  const cpuRows: string[][] = [];
  const measured: Measured[] = [];
  // With two replicas, each round runs both sides; alternating which goes first spreads drift (warm-up, other load).
  const plan: { scenario: Scenario; side: Side }[] = [];
  for (const scenario of scenarios) {
    for (let round = 0; round < rounds; round++) {
      const sides: Side[] = replicas === 1 ? ['A'] : round % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
      for (const side of sides) plan.push({ scenario, side });
    }
  }
  const sideLabel = (side: Side) => (side === 'A' ? 'A (single)' : 'B (agent on A)');
  try {
    for (const { scenario, side } of plan) {
      console.error(
        `log-path: ${scenario.kind} ${scenario.subscribers} subscriber(s), ${scenario.lines} lines${scenario.rate ? ` at ${scenario.rate}/s` : ''}${replicas === 2 ? `, subscribers on ${side}` : ''}`,
      );
      const { result, task, stats, cpu, connectMs, quiet: calm, window } = await runScenario(runs, agent.pid, scenario, dir, side);
      measured.push({ scenario, side, result, cpu });
      windows.push({ title: `${scenario.kind}, ${scenario.subscribers} subscriber(s)${replicas === 2 ? `, on ${side}` : ''}`, from: window[0], to: window[1] });
      const aggregate = result.linesTotal / ((result.lastAt - result.firstAt) / 1000);
      rows.push([
        ...(replicas === 2 ? [sideLabel(side)] : []),
        scenario.kind,
        String(scenario.subscribers),
        `${fmtInt(scenario.lines)}${scenario.rate ? ` @ ${fmtInt(scenario.rate)}/s` : ''}`,
        stats ? fmtInt(stats.lines / (stats.ms / 1000)) : '–',
        `${fmtInt(result.rateP50)} (min ${fmtInt(result.rateMin)})`,
        fmtInt(aggregate),
        fmt(result.latency.p50),
        fmt(result.latency.p99),
        fmt(result.latency.max),
        `${result.complete}/${scenario.subscribers}${result.cutoff ? `, ${result.cutoff} cut off` : ''}${result.timedOut ? ', TIMED OUT' : ''}${result.outOfOrder ? `, ${result.outOfOrder} out of order` : ''}${result.complete < scenario.subscribers ? ` (fewest lines: ${fmtInt(result.linesMin)})` : ''}`,
        task.status,
        fmt(connectMs / 1000, 1),
      ]);
      cpuRows.push([...(replicas === 2 ? [sideLabel(side)] : []), scenario.kind, String(scenario.subscribers), scenario.rate ? `${fmtInt(scenario.rate)}/s` : 'flood', cpuText(cpu), `${fmt(result.loopLag.p99)} / ${fmt(result.loopLag.max)}`, calm ? `${calm.quiet ? 'yes' : 'NO'} (${fmt(calm.waitedSeconds, 0)} s)` : 'not waited']);
      if (result.errors.length) console.error(`  errors: ${result.errors.join('; ')}`);
      if (result.shortWithDone) console.error(`  ${result.shortWithDone} subscribers got the terminal event with lines missing`);
      if (result.gaps.length) {
        console.error(`  order breaks: ${result.gaps.join('; ')}`);
        console.error(`  agent output (tail):\n${agent.output().slice(-3000)}`);
        console.error(`  service output (tail):\n${runs.service.output().slice(-3000)}`);
      }
    }
  } finally {
    await agent.kill();
    await runs.stop();
    await rm(dir, { recursive: true, force: true });
  }
  const sideColumn = replicas === 2 ? ['subscribers on'] : [];
  const out = [
    `## Log path: tool stdout → agent → service → SSE subscribers (${database === 'pglite' ? 'PGlite, embedded default' : 'PostgreSQL'}${replicas === 2 ? ', two replicas: agent on A, subscribers on A or on B' : ''}${flags['max-stored'] ? `, MAX_LOG_LINES_PER_RUN=${flags['max-stored']}` : ''}${agentBatchMs !== undefined ? `, diagnostic agent with a ${agentBatchMs} ms log batch window` : ''})`,
    '',
    machine.markdown,
    `- Machine quiet before the run: ${quiet.quiet ? 'yes' : 'NO'}; service, agent, generator and the subscribers' process all share these 2 cores`,
    '- The agent runs with `--sandbox off`: the generator lives in the checkout, which the sandbox hides (the sandbox costs the log path nothing: lines come through the same pipe; its cost is `bench/sandbox.ts`)',
    `- Lines of ${bytes} bytes; generator ceiling (the script alone): ${fmtInt(ceiling.devNull)} lines/s into /dev/null, ${fmtInt(ceiling.pipe)} lines/s through a pipe`,
    '',
    markdownTable(
      [...sideColumn, 'mode', 'subscribers', 'lines', 'generator lines/s', 'delivered lines/s per subscriber p50 (min)', 'all frames/s', 'latency p50 ms', 'p99 ms', 'max ms', 'every line, in order', 'task', 'connect s'],
      rows,
    ),
    '',
    'CPU during the measured stretch, in % of one core (the machine has 200%):',
    '',
    markdownTable([...sideColumn, 'mode', 'subscribers', 'rate', 'CPU', "subscribers' event-loop lag p99 / max ms", 'quiet before (waited)'], cpuRows),
    '',
    '_Latency: receive time in the subscribers process minus the emit timestamp the generator put in the line (same clock). In flood mode it includes the backlog that builds up when the generator outruns the path._',
  ];
  if (replicas === 2) out.push('', ...ratioMarkdown(measured));
  if (flags.profile) {
    const profiles = readdirSync(flags.profile).filter((name) => name.endsWith('.cpuprofile')).map((name) => join(flags.profile, name));
    const newest = profiles.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
    if (newest) {
      out.push('', `### Service CPU profile by scenario (${newest}; the profiler slows the service: read shares, not rates)`, '');
      for (const w of windows) out.push(windowMarkdown(w.title, summarizeWindow(newest, w.from, w.to)), '');
    }
  }
  console.log(out.join('\n'));
}

await main();
