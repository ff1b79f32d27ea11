/**
 * Dispatch latency: from the client sending `POST /api/v1/tasks` (real HTTP to the listening service) to the tool's
 * process running on a real agent process. The custom script's first action writes `date +%s%N` to a file; the start
 * latency is that stamp minus the client's send time (one machine, one clock). Runs are sequential and tiny.
 *
 *   ./node_modules/.bin/bun bench/dispatch.ts [pglite] [postgres] [--runs 50] [--warmup 5]
 *
 * Also reported: the POST's own response time, a server-side breakdown from the task's created_at/started_at (ms
 * resolution), and the floor: the same script spawned directly by this process the way the agent spawns it.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeProcessRunner } from '../adapters/process/node-process-runner.ts';
import { runAssignment } from '../core/agent/run-assignment.ts';
import { createCustomTool } from '../plugins/load-tool-custom/custom-tool.ts';
import { waitForQuietMachine } from './cpu.ts';
import { machineDescription } from './machine.ts';
import {
  createTest,
  type DatabaseMode,
  epochMs,
  fmt,
  markdownTable,
  parseFlags,
  percentile,
  type RunsService,
  startBenchAgent,
  startRunsService,
  type TaskRecord,
  waitForTask,
} from './runs/harness.ts';

const { flags, words } = parseFlags(Bun.argv.slice(2), { runs: '50', warmup: '5' });
const runCount = Number(flags.runs);
const warmup = Number(flags.warmup);
const modes = (words.length ? words : ['pglite']) as DatabaseMode[];
for (const mode of modes) if (mode !== 'pglite' && mode !== 'postgres') throw new Error(`unknown database ${mode}`);

/** `date +%s%N` as epoch milliseconds without losing the microseconds to float rounding. */
const stampMs = (text: string) => Number(BigInt(text.trim()) / 1000n) / 1000;

async function waitForFile(path: string, timeoutMs: number): Promise<string> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8');
      if (text.endsWith('\n')) return text;
    }
    if (performance.now() > deadline) throw new Error(`no stamp at ${path} after ${timeoutMs} ms`);
    await Bun.sleep(1);
  }
}

interface Sample {
  startMs: number;
  postMs: number;
  toCreated: number;
  createdToStarted: number;
  startedToScript: number;
}

async function measureService(mode: DatabaseMode, stampDir: string) {
  const runs: RunsService = await startRunsService({ database: mode });
  const { agent } = await startBenchAgent(runs, `dispatch-${mode}`);
  try {
    const script = `#!/bin/sh\ndate +%s%N > ${stampDir}/$LOADPLANE_TASK_ID\n`;
    const testId = await createTest(runs, 'dispatch probe', 'custom', script);
    const samples: Sample[] = [];
    for (let i = 0; i < warmup + runCount; i++) {
      const post = await runs.api<{ id: string }>('/tasks', { method: 'POST', json: { testId } });
      if (post.status !== 202) throw new Error(`POST /tasks: ${post.status} ${JSON.stringify(post.body)}`);
      const stamp = stampMs(await waitForFile(join(stampDir, post.body.id), 10_000));
      // The next run must find the machine free, or it would wait pending and measure the previous run's tail.
      const task: TaskRecord = await waitForTask(runs, post.body.id, 10_000, 5);
      if (task.status !== 'completed') throw new Error(`task ${task.id} ${task.status}: ${task.error}`);
      if (i < warmup) continue;
      const created = Date.parse(task.created_at);
      const started = Date.parse(task.started_at!);
      samples.push({
        startMs: stamp - post.sentAt,
        postMs: post.ms,
        toCreated: created - post.sentAt,
        createdToStarted: started - created,
        startedToScript: stamp - started,
      });
    }
    return samples;
  } finally {
    await agent.kill();
    await runs.stop();
  }
}

/** The floor: the same script written to a fresh work dir and spawned in its own process group, as the agent does. */
async function measureFloor(stampDir: string, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const workDir = await mkdtemp(join(tmpdir(), 'loadplane-floor-'));
    const stampFile = join(stampDir, `floor-${i}`);
    const sentAt = epochMs();
    await writeFile(join(workDir, 'script'), `#!/bin/sh\ndate +%s%N > ${stampFile}\n`, { mode: 0o600 });
    await chmod(join(workDir, 'script'), 0o700);
    const child = spawn(join(workDir, 'script'), [], { cwd: workDir, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    const exited = new Promise((done) => child.once('exit', done));
    const stamp = stampMs(await waitForFile(stampFile, 10_000));
    await exited;
    await rm(workDir, { recursive: true, force: true });
    if (i >= warmup) latencies.push(stamp - sentAt);
  }
  return latencies;
}

/** The agent's own code path without the server: runAssignment with the custom tool and the node process runner. */
async function measureAgentPath(stampDir: string, count: number): Promise<number[]> {
  const runner = createNodeProcessRunner();
  const tool = createCustomTool({ which: runner.which });
  const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8' };
  const latencies: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const taskId = `agent-path-${i}`;
    const sentAt = epochMs();
    const done = runAssignment({
      tool,
      runner,
      baseEnv,
      assignment: { assignmentId: taskId, taskId, testId: 'probe', tool: 'custom', script: `#!/bin/sh\ndate +%s%N > ${stampDir}/$LOADPLANE_TASK_ID\n`, config: null, machineIndex: 0, machineCount: 1 },
    });
    const stamp = stampMs(await waitForFile(join(stampDir, taskId), 10_000));
    await done;
    if (i >= warmup) latencies.push(stamp - sentAt);
  }
  return latencies;
}

const row = (name: string, values: number[]) => [name, fmt(percentile(values, 50)), fmt(percentile(values, 90)), fmt(percentile(values, 99)), fmt(Math.max(...values))];

async function main() {
  const machine = machineDescription();
  const quiet = await waitForQuietMachine({ maxSeconds: 120 });
  const stampDir = await mkdtemp(join(tmpdir(), 'loadplane-dispatch-'));
  const out: string[] = [
    `## Dispatch: POST /tasks to the tool's process running (${runCount} sequential runs after ${warmup} warm-up, agent as a separate process)`,
    '',
    machine.markdown,
    `- Machine quiet before the run: ${quiet.quiet ? 'yes' : 'NO'} (waited ${quiet.waitedSeconds.toFixed(0)} s)`,
    '',
  ];
  try {
    for (const mode of modes) {
      console.error(`dispatch: ${mode}`);
      const samples = await measureService(mode, stampDir);
      out.push(
        `### ${mode === 'pglite' ? 'PGlite (embedded default)' : 'PostgreSQL'}`,
        '',
        markdownTable(['ms (client clock = script clock)', 'p50', 'p90', 'p99', 'max'], [
          row('**POST sent → script running** (start latency)', samples.map((s) => s.startMs)),
          row('POST response time (202 received)', samples.map((s) => s.postMs)),
          row('↳ POST sent → task created_at (HTTP, auth, test lookup)', samples.map((s) => s.toCreated)),
          row('↳ created_at → started_at (insert, audit, dispatch pass, claim)', samples.map((s) => s.createdToStarted)),
          row('↳ started_at → script running (assignment rows, WS send, agent work dir + spawn)', samples.map((s) => s.startedToScript)),
        ]),
        '',
      );
    }
    console.error('dispatch: floor');
    const floor = await measureFloor(stampDir, runCount);
    const agentPath = await measureAgentPath(stampDir, runCount);
    out.push(
      '### Floors, in the benchmark process (no server, no WebSocket)',
      '',
      markdownTable(['ms', 'p50', 'p90', 'p99', 'max'], [
        row('agent code path: runAssignment (custom tool, node process runner) → script running', agentPath),
        row('bare spawn: work dir, chmod, spawn detached → script running (sh + date)', floor),
      ]),
      '',
      `_created_at/started_at have millisecond resolution: the three ↳ rows are ±1 ms each. Nearest-rank percentiles: with ${runCount} samples, p99 is the slowest run._`,
    );
  } finally {
    await rm(stampDir, { recursive: true, force: true });
  }
  console.log(out.join('\n'));
}

await main();
