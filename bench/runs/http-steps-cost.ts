/**
 * What many steps cost the http tool's engine alone (no agent, no server): the engine exactly as the agent starts it
 * (its plugin's command and plan) against the counting target, a test of 1 step vs the same test with `--steps` steps
 * (distinct names, the same URL, `GET /`), alternating the order every round, each in a session of its own with stdout
 * read to the end. Prints per round both requests/s and the engine's CPU time per request, then the medians of the
 * per-round ratios (many / 1). `--engine <main.ts>` runs another copy of the engine (e.g. a saved earlier version) in
 * place of the plugin's; `--prof <dir>` writes a CPU profile of each run there (bun --cpu-prof --cpu-prof-md, sampling every 250 µs).
 * Run: ./node_modules/.bin/bun bench/runs/http-steps-cost.ts --rounds 6 --vus 10 --duration 6 [--steps 50] [--engine path] [--prof dir]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createModuleRuntime } from '../../adapters/agent/module-runtime.ts';
import type { Assignment } from '../../core/capabilities/load-tool.ts';
import { httpCommand } from '../../plugins/load-tool-http/http-command.ts';
import { engineModule } from '../../plugins/load-tool-http/http-tool.ts';
import { waitForQuietMachine } from '../cpu.ts';
import { type CountingTarget, startCountingTarget } from './counting-target.ts';
import { fmt, fmtInt, markdownTable, median, parseFlags } from './harness.ts';

const { flags } = parseFlags(process.argv.slice(2), { rounds: '6', vus: '10', duration: '6', steps: '50', engine: '', prof: '', quiet: '20' });
const rounds = Number(flags.rounds);
const vus = Number(flags.vus);
const durationS = Number(flags.duration);
const manySteps = Number(flags.steps);
if (durationS > 10) throw new Error('keep rounds short on a shared machine: --duration is at most 10 (seconds)');
const engine = flags.engine ? pathToFileURL(resolve(flags.engine)) : engineModule;

const scriptOf = (targetUrl: string, steps: number) =>
  `steps:\n${Array.from({ length: steps }, (_, i) => `  - {name: "step ${String(i + 1).padStart(2, '0')}", method: GET, url: "${targetUrl}/"}`).join('\n')}\n`;

interface Result {
  rate: number;
  cpuMicrosPerRequest: number;
  outputBytes: number;
}

async function runOnce(steps: number, round: number, target: CountingTarget): Promise<Result> {
  const workDir = await mkdtemp(join(tmpdir(), 'loadplane-steps-cost-'));
  try {
    const assignment: Assignment = { assignmentId: 'a', taskId: 't', testId: 'x', tool: 'http', script: scriptOf(target.url, steps), config: { vus, duration: `${durationS}s` }, machineIndex: 0, machineCount: 1 };
    const command = httpCommand(assignment, createModuleRuntime().command(engine));
    for (const [name, text] of Object.entries(command.files ?? {})) await writeFile(join(workDir, name), text);
    const prof = flags.prof ? ['--cpu-prof', '--cpu-prof-md', '--cpu-prof-interval=250', `--cpu-prof-dir=${resolve(flags.prof)}`, `--cpu-prof-name=steps-${steps}-round-${round}.cpuprofile`] : [];
    const argv = [command.argv[0]!, ...prof, ...command.argv.slice(1)];
    await target.reset();
    const proc = Bun.spawn(['setsid', '--wait', ...argv], { cwd: workDir, env: { ...process.env, ...command.env }, stdout: 'pipe', stderr: 'pipe' });
    const drained = new Response(proc.stdout).arrayBuffer();
    const stderr = new Response(proc.stderr).text();
    const code = await proc.exited;
    const outputBytes = (await drained).byteLength;
    if (code !== 0) throw new Error(`${steps} steps exited ${code}: ${(await stderr).slice(-2000)}`);
    const count = await target.count();
    const usage = proc.resourceUsage();
    const cpuSeconds = usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6 : NaN;
    return { rate: count.requests / ((count.lastAt - count.firstAt) / 1000), cpuMicrosPerRequest: (cpuSeconds * 1e6) / count.requests, outputBytes };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

const target = await startCountingTarget();
const rows: (string | number)[][] = [];
const rateRatios: number[] = [];
const cpuRatios: number[] = [];
try {
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? [1, manySteps] : [manySteps, 1];
    const results = new Map<number, Result>();
    let quiet = true;
    for (const steps of order) {
      quiet = (await waitForQuietMachine({ excludePids: () => [target.pid], maxSeconds: Number(flags.quiet) })).quiet && quiet;
      results.set(steps, await runOnce(steps, round, target));
    }
    const one = results.get(1)!;
    const many = results.get(manySteps)!;
    rateRatios.push(many.rate / one.rate);
    cpuRatios.push(many.cpuMicrosPerRequest / one.cpuMicrosPerRequest);
    rows.push([round, order.join(' → '), fmtInt(one.rate), fmtInt(many.rate), fmt(many.rate / one.rate, 3), fmt(one.cpuMicrosPerRequest, 1), fmt(many.cpuMicrosPerRequest, 1), fmt(many.cpuMicrosPerRequest / one.cpuMicrosPerRequest, 3), fmtInt(many.outputBytes), quiet ? 'yes' : 'no']);
    console.error(`round ${round}: ${rows.at(-1)!.slice(2).join(' | ')}`);
  }
  console.log(
    markdownTable(
      ['round', 'order', '1 step req/s', `${manySteps} steps req/s`, 'req/s ratio', '1 step CPU µs/req', `${manySteps} steps CPU µs/req`, 'CPU ratio', `${manySteps} steps stdout bytes`, 'quiet before'],
      rows,
    ),
  );
  console.log(`\nmedian req/s ratio ${manySteps} / 1: **${fmt(median(rateRatios), 3)}**; median CPU per request ratio: **${fmt(median(cpuRatios), 3)}**`);
} finally {
  await target.stop();
}
