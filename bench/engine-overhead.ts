/**
 * The agent's overhead per engine: the same load (VUs, duration, a script hitting one local target as fast as it can)
 * run by the engine alone, as its user would start it, and as a Loadplane test through a real agent process (POST
 * /tasks with a load config), in alternating rounds to cancel drift. The target (a Bun server in its own process)
 * counts requests, so every leg is measured the same way: requests / (last request - first request).
 *
 *   ./node_modules/.bin/bun bench/engine-overhead.ts [--engines k6,jmeter,...] [--vus 20] [--duration 15s] [--rounds 3]
 *     [--max-other 15] [--attempts 3] [--sandbox on|off] [--alone-session own|shared] [--pin on|off]
 *
 * A leg during which other processes (other people's work on a shared machine) used more than --max-other % of one
 * core is run again, up to --attempts times; the table keeps the last attempt and says how many it took.
 * The engine alone runs in a session of its own (`setsid`), as the agent starts it (one signal must reach its whole
 * process tree) and as a service manager would: with the kernel's autogroup scheduling (on by default) a new session is
 * a scheduling group of its own, which on a small machine that also runs the target changes how the CPU is shared
 * between engine and target far more than anything the agent does (JMeter alone: x0.6 in its own session;
 * bench/runs/session-scheduling.ts). `--alone-session shared` runs it in the benchmark's session instead.
 * `--pin on` (a machine with 2+ cores) gives the engine a core of its own in both legs: the engine alone and the agent
 * process (whose engines inherit its affinity, so the agent's own work competes with its engine) on the last core,
 * the target, the service and this driver on the others. Engine and target then stop trading one shared pool of CPU,
 * which on 2 cores swings a leg's requests/s by ±20 % between rounds.
 * Each engine is bench/engine-overhead/<tool>.ts exporting `leg` (bench/engine-overhead/leg.ts). The aim is agent /
 * alone >= 0.97 for every engine.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDuration } from '../core/domain/load-config.ts';
import { waitForQuietMachine } from './cpu.ts';
import type { EngineLeg } from './engine-overhead/leg.ts';
import { machineDescription } from './machine.ts';
import { type CountingTarget, startCountingTarget } from './runs/counting-target.ts';
import {
  cpuMeter,
  fmt,
  fmtInt,
  machineMeter,
  markdownTable,
  parseFlags,
  pidsNamed,
  processCpuSeconds,
  type RunsService,
  startBenchAgent,
  startRunsService,
  waitForDoneEvent,
} from './runs/harness.ts';

const { flags } = parseFlags(Bun.argv.slice(2), { engines: 'k6', vus: '20', duration: '15s', rounds: '3', 'max-other': '15', attempts: '3', sandbox: 'on', 'alone-session': 'own', pin: 'off' });
const maxOther = Number(flags['max-other']);
const attempts = Math.max(1, Number(flags.attempts));
const vus = Number(flags.vus);
const duration = flags.duration;
const durationS = parseDuration(duration) / 1000;
const rounds = Number(flags.rounds);
const engines = flags.engines.split(',').filter(Boolean);
if (!['own', 'shared'].includes(flags['alone-session']!)) throw new Error('--alone-session is own or shared');
const cores = availableParallelism();
const pinned = flags.pin === 'on';
if (pinned && cores < 2) throw new Error('--pin on needs 2 or more cores');
/** `--pin on`: the engine's core (the last), and the list of the others. */
const engineCore = String(cores - 1);
const otherCores = cores > 2 ? `0-${cores - 2}` : '0';
/** Sets the CPU affinity of every thread of a running process (`taskset -a -p`). */
function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}
if (!Number.isInteger(vus) || vus < 1 || !Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(durationS)) {
  throw new Error('--vus and --rounds must be positive integers, --duration whole seconds');
}
// The agent's own baseEnv: the engine alone sees the same environment.
const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8' };

type Mode = 'alone' | 'agent';

interface LegResult {
  tool: string;
  mode: Mode;
  round: number;
  requests: number;
  seconds: number;
  rate: number;
  cpu: Record<string, number | null>;
  /** The engine's CPU time per request (µs): what the agent's extras cost inside the engine, whatever the machine's speed. */
  engineMicrosPerRequest: number;
  reported?: { totalRequests: number; requestsPerSec: number };
  attempts?: number;
}

async function loadLeg(tool: string): Promise<EngineLeg> {
  if (!/^[a-z][a-z0-9-]*$/.test(tool)) throw new Error(`not a tool id: ${tool}`);
  const module = (await import(`./engine-overhead/${tool}.ts`)) as { leg?: EngineLeg };
  if (!module.leg || module.leg.tool !== tool) throw new Error(`bench/engine-overhead/${tool}.ts must export the leg of ${tool}`);
  return module.leg;
}

/** Polls the CPU seconds of the engine's processes the agent started, keeping the last reading (they vanish at exit). */
function followCpu(processName: string) {
  const seen = new Map<number, number>();
  const timer = setInterval(() => {
    for (const pid of pidsNamed(processName)) {
      const cpu = processCpuSeconds(pid);
      if (cpu !== null) seen.set(pid, cpu);
    }
  }, 250);
  return () => {
    clearInterval(timer);
    return [...seen.values()].reduce((a, b) => a + b, 0);
  };
}

interface Context {
  runs: RunsService;
  agentPid: number;
  target: CountingTarget;
  leg: EngineLeg;
  testId: string;
  configId: string;
}

async function runAlone(leg: EngineLeg, target: CountingTarget): Promise<number> {
  const workDir = await mkdtemp(join(tmpdir(), `loadplane-${leg.tool}-alone-`));
  try {
    await writeFile(join(workDir, leg.scriptFile), leg.script(target.url));
    const command = leg.aloneCommand({ workDir, vus, durationS, targetUrl: target.url });
    // setsid --wait: a session (and autogroup) of its own, waited for, so its exit code and CPU time are the engine's.
    const session = flags['alone-session'] === 'shared' ? command.argv : ['setsid', '--wait', ...command.argv];
    const argv = pinned ? ['taskset', '-c', engineCore, ...session] : session;
    const proc = Bun.spawn(argv, { cwd: workDir, env: { ...baseEnv, ...command.env }, stdout: 'ignore', stderr: 'pipe' });
    const stderr = new Response(proc.stderr).text();
    const code = await proc.exited;
    if (code !== 0) throw new Error(`${leg.tool} alone exited ${code}: ${(await stderr).slice(-2000)}`);
    const usage = proc.resourceUsage();
    return usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6 : NaN;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

async function runLeg(mode: Mode, round: number, ctx: Context): Promise<LegResult> {
  const { runs, agentPid, target, leg } = ctx;
  // Other people's work shares this machine: wait for a quiet moment before every leg, and measure what else ran.
  const quiet = await waitForQuietMachine({ maxSeconds: 90 });
  await target.reset();
  const machineCpu = machineMeter();
  const driverCpu = process.cpuUsage();
  const meter = cpuMeter({ target: target.pid, agent: agentPid, server: runs.service.pid });
  const started = performance.now();
  let engineCpuSeconds: number;
  let reported: LegResult['reported'];
  if (mode === 'agent') {
    const engineCpu = followCpu(leg.processName);
    const post = await runs.api<{ id: string }>('/tasks', { method: 'POST', json: { testId: ctx.testId, configId: ctx.configId } });
    if (post.status !== 202) throw new Error(`POST /tasks: ${post.status} ${JSON.stringify(post.body)}`);
    const task = await waitForDoneEvent(runs, post.body.id, (durationS + 180) * 1000);
    engineCpuSeconds = engineCpu();
    if (task.status !== 'completed') throw new Error(`${leg.tool} through the agent ${task.status}: ${task.error}`);
    reported = { totalRequests: task.total_requests, requestsPerSec: task.requests_per_sec };
  } else {
    engineCpuSeconds = await runAlone(leg, target);
  }
  const wall = (performance.now() - started) / 1000;
  const driver = process.cpuUsage(driverCpu);
  const cpu: Record<string, number | null> = { engine: (engineCpuSeconds / wall) * 100, ...meter(), driver: ((driver.user + driver.system) / 1e6 / wall) * 100 };
  const machine = machineCpu();
  cpu.other = Math.max(0, machine.processes - Object.values(cpu).reduce<number>((sum, v) => sum + (v ?? 0), 0));
  cpu.softirq = machine.softirq;
  cpu.steal = machine.steal;
  cpu.quietBefore = quiet.quiet ? 1 : 0;
  const count = await target.count();
  const seconds = (count.lastAt - count.firstAt) / 1000;
  const engineMicrosPerRequest = (engineCpuSeconds / count.requests) * 1e6;
  return { tool: leg.tool, mode, round, requests: count.requests, seconds, rate: count.requests / seconds, cpu, engineMicrosPerRequest, reported };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

async function prepare(runs: RunsService, leg: EngineLeg, target: CountingTarget): Promise<{ testId: string; configId: string }> {
  const test = await runs.api<{ id: string }>('/tests', { method: 'POST', json: { name: `${leg.tool} overhead`, tool: leg.tool, script: leg.script(target.url) } });
  if (test.status !== 201) throw new Error(`POST /tests (${leg.tool}): ${test.status} ${JSON.stringify(test.body)}`);
  const config = await runs.api<{ id: string }>('/configs', { method: 'POST', json: { name: `${vus} VUs for ${duration}`, vus, duration } });
  if (config.status !== 201) throw new Error(`POST /configs: ${config.status} ${JSON.stringify(config.body)}`);
  return { testId: test.body.id, configId: config.body.id };
}

function engineSection(leg: EngineLeg, results: LegResult[], version: string | undefined): string[] {
  const rows = results.map((r) => [
    String(r.round),
    `${r.mode}${(r.attempts ?? 1) > 1 ? ` (attempt ${r.attempts})` : ''}`,
    fmtInt(r.requests),
    fmt(r.seconds, 2),
    fmtInt(r.rate),
    fmt(r.engineMicrosPerRequest, 1),
    `${leg.processName} ${fmtInt(r.cpu.engine ?? NaN)}%, target ${fmtInt(r.cpu.target ?? NaN)}%, agent ${fmtInt(r.cpu.agent ?? NaN)}%, service ${fmtInt(r.cpu.server ?? NaN)}%, softirq ${fmtInt(r.cpu.softirq ?? NaN)}%, steal ${fmtInt(r.cpu.steal ?? NaN)}%, other processes ${fmtInt(r.cpu.other ?? NaN)}%${r.cpu.quietBefore ? '' : ' (machine NOT quiet before)'}`,
    r.reported ? `${fmtInt(r.reported.totalRequests)} req, ${fmtInt(r.reported.requestsPerSec)}/s` : '',
  ]);
  return [
    `### ${leg.tool}${version ? ` (${version} as the agent found it)` : ''}`,
    '',
    markdownTable(['round', 'leg', 'requests (target)', 'first→last s', 'req/s (target)', `${leg.processName} CPU µs/request`, 'CPU, % of one core', 'task record'], rows),
    '',
  ];
}

function ratios(results: LegResult[]): { perRound: number[]; median: number; ofMeans: number; cpuRatio: number } {
  const rate = (mode: Mode, round: number) => results.find((r) => r.mode === mode && r.round === round)?.rate ?? NaN;
  const perRound = Array.from({ length: rounds }, (_, i) => rate('agent', i + 1) / rate('alone', i + 1));
  const ofMeans = mean(results.filter((r) => r.mode === 'agent').map((r) => r.rate)) / mean(results.filter((r) => r.mode === 'alone').map((r) => r.rate));
  const cpu = (mode: Mode) => mean(results.filter((r) => r.mode === mode).map((r) => r.engineMicrosPerRequest));
  const sorted = [...perRound].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  return { perRound, median, ofMeans, cpuRatio: cpu('agent') / cpu('alone') };
}

async function main() {
  const legs = await Promise.all(engines.map(loadLeg));
  const machine = machineDescription();
  const byEngine = new Map<string, LegResult[]>();
  const versions: Record<string, string> = {};
  // Each piece is stopped even when a later one fails to start: nothing is left listening after the benchmark.
  const target = await startCountingTarget();
  let runs: RunsService | null = null;
  let agent: Awaited<ReturnType<typeof startBenchAgent>>['agent'] | null = null;
  try {
    runs = await startRunsService();
    // `--sandbox off` is a diagnostic: how much of an engine's loss is the tool sandbox.
    const started = await startBenchAgent(runs, 'engine-overhead', undefined, { sandbox: flags.sandbox === 'off' ? 'off' : 'on' });
    agent = started.agent;
    if (pinned) {
      pin(agent.pid, engineCore);
      for (const pid of [target.pid, runs.service.pid, process.pid]) pin(pid, otherCores);
    }
    const machines = await runs.api<{ id: string; tools?: { tool: string; version: string | null }[] }[]>('/machines');
    for (const { tool, version } of machines.body.find((m) => m.id === started.machineId)?.tools ?? []) if (version) versions[tool] = version;
    for (const leg of legs) {
      const { testId, configId } = await prepare(runs, leg, target);
      const results: LegResult[] = [];
      byEngine.set(leg.tool, results);
      for (let round = 1; round <= rounds; round++) {
        // alone, agent, agent, alone, ...: a machine that drifts over the run (a VM's neighbours) favours neither leg.
        for (const mode of round % 2 === 1 ? (['alone', 'agent'] as const) : (['agent', 'alone'] as const)) {
          for (let attempt = 1; ; attempt++) {
            console.error(`engine-overhead: ${leg.tool} round ${round} ${mode}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
            const result = await runLeg(mode, round, { runs, agentPid: agent.pid, target, leg, testId, configId });
            if ((result.cpu.other ?? 0) <= maxOther || attempt >= attempts) {
              results.push({ ...result, attempts: attempt });
              break;
            }
          }
        }
      }
    }
  } finally {
    await agent?.kill();
    await runs?.stop();
    await target.stop();
  }

  const summary = legs.map((leg) => {
    const { perRound, median, ofMeans, cpuRatio } = ratios(byEngine.get(leg.tool) ?? []);
    return [leg.tool, perRound.map((v) => fmt(v, 3)).join(', '), `**${fmt(median, 3)}**`, fmt(ofMeans, 3), median >= 0.97 ? 'yes' : 'no', fmt(cpuRatio, 3)];
  });
  const out = [
    `## Engine overhead: each engine alone vs through the agent (${vus} VUs, ${duration}, ${rounds} alternating rounds)`,
    '',
    machine.markdown,
    '- Target: Bun.serve on 127.0.0.1 answering 200 `ok`, in its own process; engine, target, agent and service share the machine',
    flags['alone-session'] === 'shared'
      ? '- Alone, the engine ran in the benchmark\'s own session (`--alone-session shared`): through the agent it runs in a session of its own, a different scheduling group'
      : '- Both legs run the engine in a session of its own (alone: `setsid`; the agent: its process runner), so the kernel schedules it the same way against the target',
    pinned
      ? `- \`--pin on\`: the engine (alone) and the agent with its engine on core ${engineCore}; target, service and driver on ${otherCores}`
      : '- Not pinned: engine, target, agent and service share every core',
    `- Before every leg the benchmark waits (up to 90 s) for the machine to be quiet; "other processes" is what else ran meanwhile; a leg where they took over ${maxOther} % of a core ran again (up to ${attempts} attempts)`,
    '',
    markdownTable(['engine', 'agent / alone per round', 'median of the rounds', 'agent / alone of the means', 'median ≥ 0.97', 'engine CPU per request, agent / alone'], summary),
    '',
    ...legs.flatMap((leg) => engineSection(leg, byEngine.get(leg.tool) ?? [], versions[leg.tool])),
  ];
  console.log(out.join('\n'));
}

await main();
