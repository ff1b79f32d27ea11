/**
 * The built-in `http` tool's engine against k6 on one loopback target: the same VUs for the same time, each engine in
 * a session of its own (as the agent's process runner starts it) with stdout read to the end, the order alternating
 * every round. The http engine runs exactly as the agent runs it (its plugin's command and plan, metrics included:
 * it has no other mode); k6 runs as its user types it (`k6 run --vus --duration`, no output), and with `--legs
 * http,k6,k6-agent` also as the agent runs it (`--out loadplane`). `autocannon` (not a dependency of Loadplane: point
 * AUTOCANNON_BIN at its autocannon.js, e.g. from `npm install --prefix /tmp/ac autocannon`) runs with one connection per
 * VU, as `autocannon -c <vus> -d <s>` under the node on PATH. `fetch-loop` is the engine's floor: bare fetch loops that
 * record nothing (bench/runs/fetch-loop.ts). Prints per round the target's requests/s and each
 * engine's CPU time per request (user + system of the engine's process tree, from wait4), then the medians of the
 * per-round ratios against k6.
 * Run: ./node_modules/.bin/bun bench/http-tool-vs-k6.ts --rounds 4 --vus 20 --duration 8
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModuleRuntime } from '../adapters/agent/module-runtime.ts';
import type { Assignment, ToolCommand } from '../core/capabilities/load-tool.ts';
import { httpCommand } from '../plugins/load-tool-http/http-command.ts';
import { engineModule } from '../plugins/load-tool-http/http-tool.ts';
import { k6Command } from '../plugins/load-tool-k6/k6-command.ts';
import { waitForQuietMachine } from './cpu.ts';
import { leg as k6Leg } from './engine-overhead/k6.ts';
import { startCountingTarget } from './runs/counting-target.ts';
import { fmt, fmtInt, markdownTable, parseFlags } from './runs/harness.ts';

const { flags } = parseFlags(process.argv.slice(2), { legs: 'http,k6', rounds: '4', vus: '20', duration: '8', quiet: '60' });
const rounds = Number(flags.rounds);
const vus = Number(flags.vus);
const durationS = Number(flags.duration);
const legs = flags.legs!.split(',');
if (durationS > 10) throw new Error('keep rounds short on a shared machine: --duration is at most 10 (seconds)');

type Leg = 'http' | 'k6' | 'k6-agent' | 'autocannon' | 'fetch-loop';
const k6Binary = k6Leg.aloneCommand({ workDir: '', vus, durationS, targetUrl: '' }).argv[0]!;

function commandFor(leg: Leg, targetUrl: string): ToolCommand {
  const assignment = (tool: string, script: string): Assignment => ({
    assignmentId: 'bench',
    taskId: 'bench',
    testId: 'bench',
    tool,
    script,
    config: { vus, duration: `${durationS}s` },
    machineIndex: 0,
    machineCount: 1,
  });
  if (leg === 'http') {
    // One step, as the k6 script's one request: GET / as fast as each VU can.
    return httpCommand(assignment('http', `steps:\n  - {method: GET, url: "${targetUrl}/"}\n`), createModuleRuntime().command(engineModule));
  }
  if (leg === 'fetch-loop') return { argv: [process.execPath, join(import.meta.dir, 'runs/fetch-loop.ts'), `${targetUrl}/`, String(vus), String(durationS)] };
  if (leg === 'autocannon') {
    const bin = process.env.AUTOCANNON_BIN;
    if (!bin) throw new Error('the autocannon leg needs AUTOCANNON_BIN (the path of autocannon.js)');
    return { argv: ['node', bin, '--connections', String(vus), '--duration', String(durationS), `${targetUrl}/`] };
  }
  const script = k6Leg.script(targetUrl);
  if (leg === 'k6-agent') return k6Command(assignment('k6', script), k6Binary, { snapshots: true });
  return { argv: k6Leg.aloneCommand({ workDir: '', vus, durationS, targetUrl }).argv, files: { [k6Leg.scriptFile]: script } };
}

interface Result {
  rate: number;
  requests: number;
  cpuMicrosPerRequest: number;
  cpuPercent: number;
}

async function runOnce(leg: Leg, target: Awaited<ReturnType<typeof startCountingTarget>>): Promise<Result> {
  const workDir = await mkdtemp(join(tmpdir(), `loadplane-bench-${leg}-`));
  try {
    const command = commandFor(leg, target.url);
    for (const [name, text] of Object.entries(command.files ?? {})) await writeFile(join(workDir, name), text);
    await target.reset();
    const started = performance.now();
    const proc = Bun.spawn(['setsid', '--wait', ...command.argv], { cwd: workDir, env: { ...process.env, ...command.env }, stdout: 'pipe', stderr: 'pipe' });
    const drained = new Response(proc.stdout).arrayBuffer();
    const stderr = new Response(proc.stderr).text();
    const code = await proc.exited;
    const wallS = (performance.now() - started) / 1000;
    await drained;
    if (code !== 0) throw new Error(`${leg} exited ${code}: ${(await stderr).slice(-2000)}`);
    const count = await target.count();
    const usage = proc.resourceUsage();
    const cpuSeconds = usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6 : NaN;
    return {
      rate: count.requests / ((count.lastAt - count.firstAt) / 1000),
      requests: count.requests,
      cpuMicrosPerRequest: (cpuSeconds * 1e6) / count.requests,
      cpuPercent: (cpuSeconds / wallS) * 100,
    };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
};

const target = await startCountingTarget();
const rows: (string | number)[][] = [];
const ratios = new Map<Leg, { rate: number[]; cpu: number[] }>();
try {
  for (let round = 1; round <= rounds; round++) {
    const order = (round % 2 ? legs : [...legs].reverse()) as Leg[];
    const results = new Map<Leg, Result>();
    for (const leg of order) {
      const quiet = await waitForQuietMachine({ excludePids: () => [target.pid], maxSeconds: Number(flags.quiet) });
      const result = await runOnce(leg, target);
      results.set(leg, result);
      rows.push([round, leg, fmtInt(result.requests), fmtInt(result.rate), fmt(result.cpuMicrosPerRequest, 1), `${Math.round(result.cpuPercent)}%`, quiet.quiet ? 'yes' : `no (waited ${Math.round(quiet.waitedSeconds)} s)`]);
      console.log(`round ${round} ${leg}: ${rows.at(-1)!.slice(2).join(' | ')}`);
    }
    const k6 = results.get('k6');
    if (!k6) continue;
    for (const [leg, result] of results) {
      if (leg === 'k6') continue;
      const entry = ratios.get(leg) ?? { rate: [], cpu: [] };
      entry.rate.push(result.rate / k6.rate);
      entry.cpu.push(result.cpuMicrosPerRequest / k6.cpuMicrosPerRequest);
      ratios.set(leg, entry);
    }
  }
  console.log(`\n${markdownTable(['round', 'engine', 'requests (target)', 'req/s (target)', 'engine CPU µs/request', 'engine CPU, % of one core', 'machine quiet before'], rows)}`);
  const summary = [...ratios].map(([leg, entry]) => [leg, entry.rate.map((value) => fmt(value, 3)).join(', '), `**${fmt(median(entry.rate), 3)}**`, entry.cpu.map((value) => fmt(value, 3)).join(', '), `**${fmt(median(entry.cpu), 3)}**`]);
  console.log(`\n${markdownTable(['engine', 'req/s / k6, per round', 'median', 'CPU per request / k6, per round', 'median'], summary)}`);
} finally {
  await target.stop();
}
