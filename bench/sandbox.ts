/**
 * The tool sandbox's cost, side by side in one run: two real agent processes on one service, one with the sandbox
 * (the default) and one with `--sandbox off`, run the same k6 test and the same `custom` load script (Python, one
 * keep-alive connection, a `loadplane:sample` line per request) against a loopback target started here, which counts
 * the requests: requests/s = requests / (last request - first request), legs alternating so drift cancels. Then the
 * start latency the sandbox adds: through the agent's process runner (work directory to first output line, as root
 * and as an unprivileged user), and end to end (POST /tasks to the done event of a one-line script).
 *
 *   ./node_modules/.bin/bun bench/sandbox.ts [--vus 10] [--duration 10s] [--rounds 3] [--iterations 40] [--e2e 15]
 */
import { spawnSync } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveK6Binary } from '../tests/helpers/k6-binary.ts';
import { sandboxUid } from '../adapters/process/sandbox/open-tool-sandbox.ts';
import { startAgentProcess } from '../tests/helpers/agent-process.ts';
import { waitForQuietMachine } from './cpu.ts';
import { machineDescription } from './machine.ts';
import { type CountingTarget, startCountingTarget } from './runs/counting-target.ts';
import { createTest, fmt, fmtInt, markdownTable, parseFlags, percentile, type RunsService, startRunsService, waitForDoneEvent } from './runs/harness.ts';

const { flags } = parseFlags(Bun.argv.slice(2), { vus: '10', duration: '10s', rounds: '3', iterations: '40', e2e: '15' });
const vus = Number(flags.vus);
const duration = flags.duration;
const rounds = Number(flags.rounds);
const iterations = Number(flags.iterations);
const e2eRuns = Number(flags.e2e);
const modes = ['sandbox', 'none'] as const;
type Mode = (typeof modes)[number];
type Tool = 'k6' | 'custom';

/** A custom load script: one keep-alive connection for the config's duration, one sample line per request. */
const pythonLoad = (url: URL) => `#!/usr/bin/python3
import http.client, os, sys, time
conn = http.client.HTTPConnection(${JSON.stringify(url.hostname)}, ${url.port})
end = time.monotonic() + float(os.environ.get("LOADPLANE_DURATION_SECONDS", "10"))
out = sys.stdout
n = 0
while time.monotonic() < end:
    t0 = time.perf_counter()
    conn.request("GET", "/")
    conn.getresponse().read()
    out.write("loadplane:sample %.3f ok\\n" % ((time.perf_counter() - t0) * 1000))
    n += 1
print("requests", n, flush=True)
`;

interface Leg {
  tool: Tool;
  mode: Mode;
  round: number;
  requests: number;
  rate: number;
  reported: number;
  quiet: boolean;
}

async function runLeg(runs: RunsService, target: CountingTarget, leg: { tool: Tool; mode: Mode; round: number; testId: string; configId: string; machineId: string }): Promise<Leg> {
  const quiet = await waitForQuietMachine({ maxSeconds: 60 });
  await target.reset();
  const post = await runs.api<{ id: string }>('/tasks', { method: 'POST', json: { testId: leg.testId, configId: leg.configId, machineIds: [leg.machineId] } });
  if (post.status !== 202) throw new Error(`POST /tasks: ${post.status} ${JSON.stringify(post.body)}`);
  const task = await waitForDoneEvent(runs, post.body.id, 180_000);
  if (task.status !== 'completed') throw new Error(`${leg.tool} on the ${leg.mode} agent ${task.status}: ${task.error}`);
  const count = await target.count();
  return {
    tool: leg.tool,
    mode: leg.mode,
    round: leg.round,
    requests: count.requests,
    rate: count.requests / ((count.lastAt - count.firstAt) / 1000),
    reported: task.total_requests,
    quiet: quiet.quiet,
  };
}

/** bench/runs/spawn-latency.ts as a process, as this user or (uid given) as another. */
async function spawnLatency(asUid?: number) {
  const home = await mkdtemp(join(tmpdir(), 'loadplane-bench-home-'));
  try {
    if (asUid !== undefined) await chown(home, asUid, asUid);
    const script = resolve(import.meta.dir, 'runs/spawn-latency.ts');
    const argv = [process.execPath, script, '--iterations', String(iterations)];
    const command = asUid === undefined ? argv : ['setpriv', `--reuid=${asUid}`, `--regid=${asUid}`, '--clear-groups', ...argv];
    const result = spawnSync(command[0]!, command.slice(1), { cwd: home, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`spawn-latency${asUid !== undefined ? ` as uid ${asUid}` : ''}: ${result.stderr}`);
    return JSON.parse(result.stdout) as { uid: number; on: { firstLine: number[]; exit: number[] }; off: { firstLine: number[]; exit: number[] }; summary: string };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const median = (values: number[]) => percentile(values, 50);

async function main() {
  const machine = machineDescription();
  const k6 = resolveK6Binary();
  const k6Version = Bun.spawnSync([k6, 'version']).stdout.toString().trim();
  const runsAsRoot = process.getuid?.() === 0;

  // 1. Start latency through the runner: no service, nothing else running.
  console.error('sandbox: start latency through the process runner');
  const latency = [{ label: runsAsRoot ? 'agent as root (tool as uid 65534)' : 'agent unprivileged (user namespace)', data: await spawnLatency() }];
  if (runsAsRoot) {
    // Needs this checkout and Bun readable by uid 65534 (not so under a root-only home): skipped, and said, otherwise.
    try {
      latency.push({ label: 'agent unprivileged, uid 65534 (user namespace)', data: await spawnLatency(sandboxUid) });
    } catch (error) {
      console.error(`sandbox: the unprivileged start latency was not measured: ${String(error).split('\n')[0]}`);
    }
  }

  // 2. Throughput and end to end, through the service and two agents.
  const target = await startCountingTarget();
  const runs = await startRunsService();
  const agents = {
    sandbox: startAgentProcess({ serverUrl: runs.url, token: runs.agentToken, hostname: 'bench-sandbox-on' }),
    none: startAgentProcess({ serverUrl: runs.url, token: runs.agentToken, hostname: 'bench-sandbox-off', extraArgs: ['--sandbox', 'off'] }),
  };
  const legs: Leg[] = [];
  const e2e: Record<Mode, number[]> = { sandbox: [], none: [] };
  try {
    await Promise.all(Object.values(agents).map((agent) => agent.registered(1, 60_000)));
    if (!agents.sandbox.output().includes('tools run in a sandbox')) throw new Error(`the sandboxed agent is not sandboxed:\n${agents.sandbox.output()}`);
    const machines = (await runs.api<{ id: string; hostname: string }[]>('/machines')).body;
    const machineOf = (mode: Mode) => machines.find((m) => m.hostname === (mode === 'sandbox' ? 'bench-sandbox-on' : 'bench-sandbox-off'))!.id;
    const url = new URL(target.url);
    const tests: Record<Tool, string> = {
      k6: await createTest(runs, 'sandbox k6', 'k6', `import http from 'k6/http';\n\nexport default function () {\n  http.get('${target.url}/');\n}\n`),
      custom: await createTest(runs, 'sandbox custom', 'custom', pythonLoad(url)),
    };
    const config = await runs.api<{ id: string }>('/configs', { method: 'POST', json: { name: `${vus} VUs for ${duration}`, vus, duration } });
    if (config.status !== 201) throw new Error(`POST /configs: ${config.status} ${JSON.stringify(config.body)}`);
    for (let round = 1; round <= rounds; round++) {
      const order: Mode[] = round % 2 ? ['sandbox', 'none'] : ['none', 'sandbox'];
      for (const tool of ['k6', 'custom'] as const) {
        for (const mode of order) {
          console.error(`sandbox: round ${round} ${tool} ${mode}`);
          legs.push(await runLeg(runs, target, { tool, mode, round, testId: tests[tool], configId: config.body.id, machineId: machineOf(mode) }));
        }
      }
    }
    console.error('sandbox: end to end, POST /tasks to done');
    const oneLine = await createTest(runs, 'sandbox e2e', 'custom', '#!/bin/sh\necho ready\n');
    for (let i = 0; i < e2eRuns + 2; i++) {
      for (const mode of i % 2 ? (['none', 'sandbox'] as const) : (['sandbox', 'none'] as const)) {
        const started = performance.now();
        const post = await runs.api<{ id: string }>('/tasks', { method: 'POST', json: { testId: oneLine, machineIds: [machineOf(mode)] } });
        const task = await waitForDoneEvent(runs, post.body.id, 60_000);
        if (task.status !== 'completed') throw new Error(`e2e on ${mode}: ${task.status} ${task.error}`);
        if (i >= 2) e2e[mode].push(performance.now() - started); // the first two of each warm up
      }
    }
  } finally {
    for (const agent of Object.values(agents)) await agent.kill();
    await runs.stop();
    await target.stop();
  }

  const legRows = legs.map((l) => [String(l.round), l.tool, l.mode === 'sandbox' ? 'sandboxed' : 'unsandboxed', fmtInt(l.requests), fmtInt(l.rate), fmtInt(l.reported), l.quiet ? 'yes' : 'no']);
  const ratioRows = (['k6', 'custom'] as const).map((tool) => {
    const rate = (mode: Mode, round: number) => legs.find((l) => l.tool === tool && l.mode === mode && l.round === round)!.rate;
    const perRound = Array.from({ length: rounds }, (_, i) => rate('sandbox', i + 1) / rate('none', i + 1));
    const means = modes.map((mode) => mean(legs.filter((l) => l.tool === tool && l.mode === mode).map((l) => l.rate)));
    return [tool, fmtInt(means[0]!), fmtInt(means[1]!), perRound.map((v) => fmt(v, 3)).join(', '), `**${fmt(means[0]! / means[1]!, 3)}**`];
  });
  const latencyRows = latency.flatMap(({ label, data }) => [
    [label, 'first output line', fmt(median(data.off.firstLine), 1), fmt(median(data.on.firstLine), 1), `**+${fmt(median(data.on.firstLine) - median(data.off.firstLine), 1)}**`, `${fmt(percentile(data.off.firstLine, 95), 1)} / ${fmt(percentile(data.on.firstLine, 95), 1)}`],
    [label, 'exit (sandbox torn down)', fmt(median(data.off.exit), 1), fmt(median(data.on.exit), 1), `+${fmt(median(data.on.exit) - median(data.off.exit), 1)}`, `${fmt(percentile(data.off.exit, 95), 1)} / ${fmt(percentile(data.on.exit, 95), 1)}`],
  ]);
  latencyRows.push([
    'end to end, through the service',
    'POST /tasks to the done event',
    fmt(median(e2e.none), 1),
    fmt(median(e2e.sandbox), 1),
    `+${fmt(median(e2e.sandbox) - median(e2e.none), 1)}`,
    `${fmt(percentile(e2e.none, 95), 1)} / ${fmt(percentile(e2e.sandbox, 95), 1)}`,
  ]);
  const out = [
    `## Run isolation: the sandbox's cost (${vus} VUs, ${duration}, ${rounds} alternating rounds; ${iterations} starts per mode; ${e2eRuns} runs end to end)`,
    '',
    machine.markdown,
    `- ${k6Version}; target: Bun.serve on 127.0.0.1 answering 200 \`ok\` in its own process; agents, service, target and tools share the cores`,
    `- Sandbox: ${latency[0]!.data.summary}`,
    '- Before every throughput leg the benchmark waits (up to 60 s) for the machine to be quiet ("quiet before")',
    '',
    markdownTable(['round', 'tool', 'agent', 'requests (target)', 'req/s (target)', 'requests (task record)', 'quiet before'], legRows),
    '',
    markdownTable(['tool', 'req/s sandboxed (mean)', 'req/s unsandboxed (mean)', 'ratio per round', 'ratio of the means (aim ≥ 0.98)'], ratioRows),
    '',
    markdownTable(['start latency, ms', 'until', 'median unsandboxed', 'median sandboxed', 'added (aim < 20 ms)', 'p95 unsandboxed / sandboxed'], latencyRows),
  ];
  console.log(out.join('\n'));
}

await main();
