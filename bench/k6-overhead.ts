/**
 * The agent's overhead on a k6 run: the same k6 script, VUs and duration against the same local target (a Bun server
 * in its own process answering 200 at once), run by k6 alone and through Loadplane (a real agent process, started with
 * POST /tasks and a load config), alternating to cancel drift. The target counts requests, so every leg is measured the
 * same way: requests / (last request - first request).
 *
 *   ./node_modules/.bin/bun bench/k6-overhead.ts [--vus 20] [--duration 15s] [--rounds 3] [--legs alone,json,agent]
 *
 * Legs: `alone` = `k6 run` as a user would; `json` = k6 alone with the `--out json=…` the agent adds (k6's own cost of
 * writing every sample); `agent` = through Loadplane (k6 with that output, plus the agent tailing and parsing it).
 * Variants for the diagnosis: `csv` = k6 alone with `--out csv=…`; `lean` = `--out json` with `--system-tags status`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveK6Binary } from '../tests/helpers/k6-binary.ts';
import { waitForQuietMachine } from './cpu.ts';
import { type CountingTarget, startCountingTarget } from './runs/counting-target.ts';
import { machineDescription } from './machine.ts';
import {
  cpuMeter,
  createTest,
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

const { flags } = parseFlags(Bun.argv.slice(2), { vus: '20', duration: '15s', rounds: '3', legs: 'alone,json,agent' });
const vus = Number(flags.vus);
const duration = flags.duration;
const rounds = Number(flags.rounds);
const legs = flags.legs.split(',') as Leg[];
type Leg = 'alone' | 'json' | 'agent' | 'csv' | 'lean';
for (const leg of legs) if (!['alone', 'json', 'agent', 'csv', 'lean'].includes(leg)) throw new Error(`unknown leg ${leg}`);
const k6 = resolveK6Binary();
// The agent's own baseEnv: k6 alone sees the same environment.
const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8' };

type Target = CountingTarget;

interface LegResult {
  leg: Leg;
  round: number;
  requests: number;
  seconds: number;
  rate: number;
  cpu: Record<string, number | null>;
  reported?: { totalRequests: number; requestsPerSec: number; status: string };
}

/** Polls the CPU seconds of the k6 process(es) the agent started, keeping the last reading (they vanish at exit). */
function followK6Cpu() {
  const seen = new Map<number, number>();
  const timer = setInterval(() => {
    for (const pid of pidsNamed('k6')) {
      const cpu = processCpuSeconds(pid);
      if (cpu !== null) seen.set(pid, cpu);
    }
  }, 250);
  return () => {
    clearInterval(timer);
    return [...seen.values()].reduce((a, b) => a + b, 0);
  };
}

async function runLeg(leg: Leg, round: number, ctx: { runs: RunsService; agentPid: number; target: Target; testId: string; configId: string; script: string }): Promise<LegResult> {
  const { runs, agentPid, target } = ctx;
  // Other people's work shares this machine: wait for a quiet moment before every leg, and measure what else ran.
  const quiet = await waitForQuietMachine({ maxSeconds: 90 });
  await target.reset();
  const machineCpu = machineMeter();
  const driverCpu = process.cpuUsage();
  const meter = cpuMeter({ target: target.pid, agent: agentPid, server: runs.service.pid });
  const started = performance.now();
  let k6CpuSeconds = 0;
  let reported: LegResult['reported'];
  if (leg === 'agent') {
    const k6Cpu = followK6Cpu();
    const post = await runs.api<{ id: string }>('/tasks', { method: 'POST', json: { testId: ctx.testId, configId: ctx.configId } });
    if (post.status !== 202) throw new Error(`POST /tasks: ${post.status} ${JSON.stringify(post.body)}`);
    const task = await waitForDoneEvent(runs, post.body.id, 180_000);
    k6CpuSeconds = k6Cpu();
    if (task.status !== 'completed') throw new Error(`k6 through the agent ${task.status}: ${task.error}`);
    reported = { totalRequests: task.total_requests, requestsPerSec: task.requests_per_sec, status: task.status };
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'loadplane-k6-alone-'));
    try {
      await writeFile(join(dir, 'script.js'), ctx.script);
      const output = { alone: [], json: ['--out', 'json=samples.jsonl'], csv: ['--out', 'csv=samples.csv'], lean: ['--out', 'json=samples.jsonl', '--system-tags', 'status'] }[leg];
      const argv = [k6, 'run', '--no-usage-report', '--no-color', '--quiet', ...output, '--vus', String(vus), '--duration', duration, 'script.js'];
      const proc = Bun.spawn(argv, { cwd: dir, env: baseEnv, stdout: 'ignore', stderr: 'pipe' });
      const code = await proc.exited;
      if (code !== 0) throw new Error(`k6 alone exited ${code}: ${await new Response(proc.stderr).text()}`);
      const usage = proc.resourceUsage();
      k6CpuSeconds = usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6 : NaN;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const wall = (performance.now() - started) / 1000;
  const driver = process.cpuUsage(driverCpu);
  const cpu: Record<string, number | null> = { k6: (k6CpuSeconds / wall) * 100, ...meter(), driver: ((driver.user + driver.system) / 1e6 / wall) * 100 };
  const machine = machineCpu();
  cpu.other = Math.max(0, machine.processes - Object.values(cpu).reduce<number>((sum, v) => sum + (v ?? 0), 0));
  cpu.softirq = machine.softirq;
  cpu.quietBefore = quiet.quiet ? 1 : 0;
  const count = await target.count();
  const seconds = (count.lastAt - count.firstAt) / 1000;
  return { leg, round, requests: count.requests, seconds, rate: count.requests / seconds, cpu, reported };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

async function main() {
  const machine = machineDescription();
  const k6Version = Bun.spawnSync([k6, 'version']).stdout.toString().trim();
  const target = await startCountingTarget();
  const runs = await startRunsService();
  const { agent } = await startBenchAgent(runs, 'k6-overhead');
  const results: LegResult[] = [];
  try {
    const script = `import http from 'k6/http';\n\nexport default function () {\n  http.get('${target.url}/');\n}\n`;
    const testId = await createTest(runs, 'k6 overhead', 'k6', script);
    const config = await runs.api<{ id: string }>('/configs', { method: 'POST', json: { name: `${vus} VUs for ${duration}`, vus, duration } });
    if (config.status !== 201) throw new Error(`POST /configs: ${config.status} ${JSON.stringify(config.body)}`);
    for (let round = 1; round <= rounds; round++) {
      for (const leg of legs) {
        console.error(`k6-overhead: round ${round} ${leg}`);
        results.push(await runLeg(leg, round, { runs, agentPid: agent.pid, target, testId, configId: config.body.id, script }));
      }
    }
  } finally {
    await agent.kill();
    await runs.stop();
    await target.stop();
  }

  const rows = results.map((r) => [
    String(r.round),
    r.leg,
    fmtInt(r.requests),
    fmt(r.seconds, 2),
    fmtInt(r.rate),
    `k6 ${fmtInt(r.cpu.k6 ?? NaN)}%, target ${fmtInt(r.cpu.target ?? NaN)}%, agent ${fmtInt(r.cpu.agent ?? NaN)}%, service ${fmtInt(r.cpu.server ?? NaN)}%, softirq ${fmtInt(r.cpu.softirq ?? NaN)}%, other processes ${fmtInt(r.cpu.other ?? NaN)}%${r.cpu.quietBefore ? '' : ' (machine NOT quiet before)'}`,
    r.reported ? `${fmtInt(r.reported.totalRequests)} req, ${fmtInt(r.reported.requestsPerSec)}/s` : '',
  ]);
  const rateOf = (leg: Leg) => results.filter((r) => r.leg === leg).map((r) => r.rate);
  const ratioRows: string[][] = [];
  const pairRatios = (over: Leg, under: Leg) =>
    Array.from({ length: rounds }, (_, i) => {
      const a = results.find((r) => r.leg === over && r.round === i + 1);
      const b = results.find((r) => r.leg === under && r.round === i + 1);
      return a && b ? a.rate / b.rate : NaN;
    });
  const pairs: [Leg, Leg, string][] = [
    ['agent', 'alone', '**agent / alone** (the aim: ≥ 0.97)'],
    ['json', 'alone', 'k6 `--out json` / alone (k6 writing every sample)'],
    ['agent', 'json', 'agent / k6 `--out json` (tailing, parsing, streaming)'],
    ['csv', 'alone', 'k6 `--out csv` / alone (variant)'],
    ['lean', 'alone', 'k6 `--out json --system-tags status` / alone (variant)'],
  ];
  for (const [over, under, label] of pairs) {
    if (!legs.includes(over) || !legs.includes(under)) continue;
    const perRound = pairRatios(over, under);
    ratioRows.push([label, perRound.map((v) => fmt(v, 3)).join(', '), fmt(mean(rateOf(over)) / mean(rateOf(under)), 3)]);
  }
  const out = [
    `## k6 overhead: k6 alone vs k6 through the agent (${vus} VUs, ${duration}, ${rounds} alternating rounds)`,
    '',
    machine.markdown,
    `- ${k6Version}; target: Bun.serve on 127.0.0.1 answering 200 \`ok\`, in its own process; k6, target, agent and service share 2 cores`,
    '- Before every leg the benchmark waits (up to 90 s) for the machine to be quiet; "other processes" is what else ran meanwhile',
    '',
    markdownTable(['round', 'leg', 'requests (target)', 'first→last s', 'req/s (target)', 'CPU, % of one core (machine: 200%)', 'task record'], rows),
    '',
    markdownTable(['ratio of requests/s', 'per round', 'of the means'], ratioRows),
  ];
  console.log(out.join('\n'));
}

await main();
