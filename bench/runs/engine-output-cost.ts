/**
 * What measuring costs inside the engine, without the agent: the engine as its user runs it against the exact command
 * the agent builds (k6 with `--out loadplane`, JMeter with Loadplane's listener in the plan), each in a session of its
 * own with stdout read to the end, alternating the order every round (ABBA). Prints per-round requests/s ratios, their
 * median, and the engine's CPU time per request. The engine-overhead benchmark measures the same plus the agent; on a
 * noisy 2-core VM this isolates the one part the engine pays for.
 * Run: ./node_modules/.bin/bun bench/runs/engine-output-cost.ts --engines k6,jmeter --rounds 8 --vus 20 --duration 10
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Assignment, ToolCommand } from '../../core/capabilities/load-tool.ts';
import { jmeterCommand } from '../../plugins/load-tool-jmeter/jmeter-command.ts';
import { k6Command } from '../../plugins/load-tool-k6/k6-command.ts';
import { waitForQuietMachine } from '../cpu.ts';
import type { EngineLeg } from '../engine-overhead/leg.ts';
import { leg as jmeterLeg } from '../engine-overhead/jmeter.ts';
import { leg as k6Leg } from '../engine-overhead/k6.ts';
import { startCountingTarget } from './counting-target.ts';
import { fmt, fmtInt, markdownTable, median, parseFlags } from './harness.ts';

const { flags } = parseFlags(process.argv.slice(2), { engines: 'k6,jmeter', rounds: '8', vus: '20', duration: '10' });
const rounds = Number(flags.rounds);
const vus = Number(flags.vus);
const durationS = Number(flags.duration);

/** The command the agent runs for this engine (its plugin's own builder, with the in-engine metrics on). */
const measuredCommand: Record<string, (assignment: Assignment, binary: string) => ToolCommand> = {
  k6: (assignment, binary) => k6Command(assignment, binary, { snapshots: true }),
  jmeter: (assignment, binary) => jmeterCommand(assignment, binary, { metricsListener: true }),
};
const legs: Record<string, EngineLeg> = { k6: k6Leg, jmeter: jmeterLeg };

type Variant = 'alone' | 'measured';
interface Result {
  variant: Variant;
  rate: number;
  cpuMicrosPerRequest: number;
}

async function runOnce(leg: EngineLeg, variant: Variant, targetUrl: string, target: Awaited<ReturnType<typeof startCountingTarget>>): Promise<Result> {
  const workDir = await mkdtemp(join(tmpdir(), `loadplane-output-cost-${leg.tool}-`));
  try {
    const script = leg.script(targetUrl);
    await writeFile(join(workDir, leg.scriptFile), script);
    const alone = leg.aloneCommand({ workDir, vus, durationS, targetUrl });
    let argv = alone.argv;
    let env = alone.env ?? {};
    if (variant === 'measured') {
      const assignment: Assignment = { assignmentId: 'a', taskId: 't', testId: 'x', tool: leg.tool, script, config: { vus, duration: `${durationS}s` }, machineIndex: 0, machineCount: 1 } as Assignment;
      const command = measuredCommand[leg.tool]!(assignment, alone.argv[0]!);
      for (const [name, text] of Object.entries(command.files ?? {})) await writeFile(join(workDir, name), text);
      argv = command.argv;
      env = command.env ?? {};
    }
    await target.reset();
    // setsid --wait: a session of its own, as the agent's process runner starts an engine (and as the alone leg of
    // bench/engine-overhead.ts does); stdout is read to the end either way, as the agent reads it.
    const proc = Bun.spawn(['setsid', '--wait', ...argv], { cwd: workDir, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' });
    const drained = new Response(proc.stdout).arrayBuffer();
    const stderr = new Response(proc.stderr).text();
    const code = await proc.exited;
    await drained;
    if (code !== 0) throw new Error(`${leg.tool} ${variant} exited ${code}: ${(await stderr).slice(-2000)}`);
    const count = await target.count();
    const usage = proc.resourceUsage();
    const cpuSeconds = usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6 : NaN;
    return { variant, rate: count.requests / ((count.lastAt - count.firstAt) / 1000), cpuMicrosPerRequest: (cpuSeconds * 1e6) / count.requests };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

const target = await startCountingTarget();
const summary: (string | number)[][] = [];
try {
  for (const tool of flags.engines!.split(',')) {
    const leg = legs[tool];
    if (!leg) throw new Error(`no such engine here: ${tool} (k6, jmeter)`);
    const rows: (string | number)[][] = [];
    const rateRatios: number[] = [];
    const cpuRatios: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const order: Variant[] = round % 2 ? ['alone', 'measured'] : ['measured', 'alone'];
      const byVariant = new Map<Variant, Result>();
      for (const variant of order) {
        await waitForQuietMachine({ excludePids: () => [target.pid] });
        byVariant.set(variant, await runOnce(leg, variant, target.url, target));
      }
      const alone = byVariant.get('alone')!;
      const measured = byVariant.get('measured')!;
      rateRatios.push(measured.rate / alone.rate);
      cpuRatios.push(measured.cpuMicrosPerRequest / alone.cpuMicrosPerRequest);
      rows.push([round, order.join(' → '), fmtInt(alone.rate), fmtInt(measured.rate), fmt(measured.rate / alone.rate, 3), fmt(alone.cpuMicrosPerRequest, 1), fmt(measured.cpuMicrosPerRequest, 1), fmt(measured.cpuMicrosPerRequest / alone.cpuMicrosPerRequest, 3)]);
      console.log(`${tool} round ${round}: ${rows.at(-1)!.slice(2).join(' | ')}`);
    }
    console.log(`\n#### ${tool}\n`);
    console.log(markdownTable(['round', 'order', 'alone req/s', 'measured req/s', 'req/s ratio', 'alone CPU µs/req', 'measured CPU µs/req', 'CPU ratio'], rows));
    summary.push([tool, `**${fmt(median(rateRatios), 3)}**`, `**${fmt(median(cpuRatios), 3)}**`]);
  }
  console.log(`\n${markdownTable(['engine', 'req/s measured / alone, median', 'CPU per request measured / alone, median'], summary)}`);
} finally {
  await target.stop();
}
