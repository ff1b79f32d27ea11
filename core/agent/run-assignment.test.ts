import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { createNodeProcessRunner } from '../../adapters/process/node-process-runner.ts';
import type { Assignment, LoadTool, MetricSnapshot, ToolCommand } from '../capabilities/load-tool.ts';
import { LatencyHistogram } from '../domain/metrics/histogram.ts';
import { MetricRecorder } from '../domain/metrics/metric-recorder.ts';
import { type LogLine, runAssignment } from './run-assignment.ts';
import { groupAlive, uniqueSleep, waitFor } from '../../tests/helpers/process-probes.ts';

/** These cases check a tool's own lines by position: no agent progress line (run-assignment-progress.test.ts has those) may slip in when `sh` is slow to start on a busy machine. */
const noProgressLines = 24 * 60 * 60 * 1000;

const runner = createNodeProcessRunner({ tailPollMs: 20, drainGraceMs: 300 });
const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

const assignment: Assignment = {
  assignmentId: 'a-1',
  taskId: 't-1',
  testId: 'test-1',
  tool: 'fake',
  script: '',
  config: null,
  machineIndex: 0,
  machineCount: 1,
};

/** A tool whose output lines `S <ms> ok|error` (stdout or sample file) are requests; everything else is logged. */
function fakeTool(command: ToolCommand | (() => ToolCommand), available: Awaited<ReturnType<LoadTool['available']>> = { ok: true }): LoadTool {
  return {
    tool: 'fake',
    validateScript: () => null,
    available: async () => available,
    command: () => (typeof command === 'function' ? command() : command),
    createParser() {
      const recorder = new MetricRecorder();
      const sample = (line: string) => {
        const [, ms, status] = line.split(' ');
        recorder.request(Number(ms), status === 'error');
      };
      return {
        onOutput(_source, line) {
          if (!line.startsWith('S ')) return line;
          sample(line);
          return null;
        },
        onSample: sample,
        takeInterval: (now) => recorder.takeInterval(now),
        summary: () => recorder.summary(),
        outcome: (code, signal) => (code === 0 ? { status: 'completed' } : { status: 'failed', reason: signal ? `killed by ${signal}` : `exit code ${code}` }),
      };
    },
  };
}

function collector() {
  const logs: LogLine[] = [];
  const metrics: MetricSnapshot[] = [];
  const pids: number[] = [];
  return {
    logs,
    metrics,
    pids,
    hooks: {
      onLog: (line: LogLine) => logs.push(line),
      onMetrics: (snapshot: MetricSnapshot) => metrics.push(snapshot),
      onStarted: (pid: number) => pids.push(pid),
    },
  };
}


describe('runAssignment', () => {
  test('runs the command in a fresh work dir, logs non-sample lines, summarises samples, cleans up', async () => {
    const seen = collector();
    const tool = fakeTool({
      argv: ['sh', '-c', 'pwd; cat input.txt; echo; echo "$FROM_TOOL $FROM_BASE"; echo "S 12 ok"; echo "S 30 error"; echo oops >&2; exit 0'],
      env: { FROM_TOOL: 'tool-env' },
      files: { 'input.txt': 'from a file' },
    });
    const result = await runAssignment({ progressQuietMs: noProgressLines, tool, assignment, runner, baseEnv: { ...baseEnv, FROM_BASE: 'base-env' }, ...seen.hooks });
    expect(result.startError).toBeUndefined();
    expect(result.outcome).toEqual({ status: 'completed' });
    expect(result.exitCode).toBe(0);
    expect(seen.pids).toHaveLength(1);
    const out = seen.logs.filter((l) => l.source === 'out').map((l) => l.text);
    expect(out.slice(1)).toEqual(['from a file', 'tool-env base-env']);
    expect(seen.logs.find((l) => l.source === 'err')?.text).toBe('oops');
    expect(seen.logs.every((l) => typeof l.ts === 'number' && !l.text.startsWith('S '))).toBe(true);
    expect(existsSync(out[0]!)).toBe(false); // the work dir is gone
    expect(result.summary.requests).toBe(2);
    expect(result.summary.errors).toBe(1);
    const histogram = LatencyHistogram.decode(result.summary.histogram);
    expect(histogram.count).toBe(2);
    expect(histogram.max).toBe(30);
    // The final interval is flushed, so intervals add up to the summary.
    expect(seen.metrics.reduce((sum, m) => sum + m.requests, 0)).toBe(2);
  });

  test('tails the sample file and emits interval snapshots while the tool runs', async () => {
    const seen = collector();
    const script = 'for i in 1 2 3 4 5 6; do echo "S $i ok" >> samples.txt; sleep 0.06; done; printf "S 99 error" >> samples.txt';
    const tool = fakeTool({ argv: ['sh', '-c', script], sampleFile: 'samples.txt' });
    const result = await runAssignment({ progressQuietMs: noProgressLines, tool, assignment, runner, baseEnv, metricsIntervalMs: 50, ...seen.hooks });
    expect(result.outcome.status).toBe('completed');
    expect(result.summary.requests).toBe(7); // the last line, without newline, is drained at the end
    expect(result.summary.errors).toBe(1);
    expect(seen.metrics.length).toBeGreaterThanOrEqual(3);
    expect(seen.metrics.reduce((sum, m) => sum + m.requests, 0)).toBe(7);
    for (const snapshot of seen.metrics) expect(snapshot.endedAt).toBeGreaterThanOrEqual(snapshot.startedAt);
  });

  test('a non-zero exit is the parser\'s outcome', async () => {
    const result = await runAssignment({ progressQuietMs: noProgressLines, tool: fakeTool({ argv: ['sh', '-c', 'exit 7'] }), assignment, runner, baseEnv });
    expect(result.outcome).toEqual({ status: 'failed', reason: 'exit code 7' });
    expect(result.exitCode).toBe(7);
    expect(result.startError).toBeUndefined();
  });

  test('an executable named as ./program is written with mode 0700 and run by its absolute path', async () => {
    const seen = collector();
    const tool = fakeTool({ argv: ['./run', 'arg'], files: { run: '#!/bin/sh\necho "ran $1 in $(basename "$PWD")"\n' } });
    const result = await runAssignment({ progressQuietMs: noProgressLines, tool, assignment, runner, baseEnv, ...seen.hooks });
    expect(result.outcome.status).toBe('completed');
    expect(seen.logs[0]!.text).toMatch(/^ran arg in loadplane-run-/);
  });

  test('abort kills the whole process group and ends failed/cancelled', async () => {
    const seen = collector();
    const controller = new AbortController();
    // The child sleeps for five minutes, past the test's timeout: the run can only end in time because abort killed it.
    const tool = fakeTool({ argv: ['sh', '-c', `sleep ${uniqueSleep()} & echo "child $!"; wait`] });
    const running = runAssignment({ progressQuietMs: noProgressLines, tool, assignment, runner, baseEnv, signal: controller.signal, ...seen.hooks });
    await waitFor(() => seen.logs.length > 0);
    const child = Number(seen.logs[0]!.text.split(' ')[1]);
    controller.abort();
    const result = await running;
    expect(result.outcome).toEqual({ status: 'failed', reason: 'cancelled' });
    await waitFor(() => !groupAlive(seen.pids[0]!));
    expect(() => process.kill(child, 0)).toThrow();
  });

  test('a tool that ignores SIGTERM is SIGKILLed after the grace', async () => {
    const seen = collector();
    const controller = new AbortController();
    const tool = fakeTool({ argv: ['sh', '-c', 'trap "" TERM; echo ready; while true; do sleep 0.05; done'] });
    const running = runAssignment({ progressQuietMs: noProgressLines, tool, assignment, runner, baseEnv, signal: controller.signal, killGraceMs: 300, ...seen.hooks });
    await waitFor(() => seen.logs.length > 0);
    const started = Date.now();
    controller.abort();
    // The loop never ends by itself and ignores SIGTERM: only the SIGKILL after the grace can end the run.
    const result = await running;
    // Not before the grace (a timer never fires early); how long after it depends on the machine, so it is not bounded.
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(result.outcome).toEqual({ status: 'failed', reason: 'cancelled' });
    await waitFor(() => !groupAlive(seen.pids[0]!));
  });

  test('an already aborted signal starts nothing', async () => {
    const seen = collector();
    const result = await runAssignment({ progressQuietMs: noProgressLines, tool: fakeTool({ argv: ['sh', '-c', 'echo no'] }), assignment, runner, baseEnv, signal: AbortSignal.abort(), ...seen.hooks });
    expect(result.outcome).toEqual({ status: 'failed', reason: 'cancelled' });
    expect(seen.pids).toEqual([]);
  });

  describe('start errors resolve with startError and an empty summary, never throw', () => {
    const expectNotStarted = (result: Awaited<ReturnType<typeof runAssignment>>, reason: RegExp) => {
      expect(result.startError).toMatch(reason);
      expect(result.outcome.status).toBe('failed');
      expect(result.exitCode).toBeNull();
      expect(result.summary.requests).toBe(0);
      expect(LatencyHistogram.decode(result.summary.histogram).count).toBe(0);
    };

    test('tool not available', async () => {
      const tool = fakeTool({ argv: ['true'] }, { ok: false, reason: 'fake not found on PATH' });
      expectNotStarted(await runAssignment({ progressQuietMs: noProgressLines, tool, assignment, runner, baseEnv }), /fake is not available on this machine: fake not found on PATH/);
    });

    test('program missing', async () => {
      const tool = fakeTool({ argv: ['/nonexistent/fake-tool', 'run'] });
      expectNotStarted(await runAssignment({ progressQuietMs: noProgressLines, tool, assignment, runner, baseEnv }), /cannot start \/nonexistent\/fake-tool.*not found/);
    });

    test('command() throws, or is empty', async () => {
      const throwing = fakeTool(() => {
        throw new Error('no script');
      });
      expectNotStarted(await runAssignment({ progressQuietMs: noProgressLines, tool: throwing, assignment, runner, baseEnv }), /could not prepare the run: no script/);
      expectNotStarted(await runAssignment({ progressQuietMs: noProgressLines, tool: fakeTool({ argv: [] }), assignment, runner, baseEnv }), /empty command/);
    });

    test('bad file names', async () => {
      const tool = fakeTool({ argv: ['true'], files: { '../escape': 'x' } });
      expectNotStarted(await runAssignment({ progressQuietMs: noProgressLines, tool, assignment, runner, baseEnv }), /work directory/);
    });
  });

  test("the workspace's variables lie under the agent's and the tool's; their values are masked in lines and reasons", async () => {
    const seen = collector();
    const tool = fakeTool({
      argv: ['sh', '-c', 'echo "api=$API_KEY path=$PATH tool=$FROM_TOOL ld=${LD_PRELOAD:-unset}"; echo "$API_KEY" >&2; exit 3'],
      env: { FROM_TOOL: 'tool-wins' },
    });
    const env = { API_KEY: 'super-secret-key', PATH: '/nowhere', FROM_TOOL: 'workspace-loses', LD_PRELOAD: '/tmp/evil.so', ab: 'ab' };
    const result = await runAssignment({ progressQuietMs: noProgressLines, tool, assignment: { ...assignment, env }, runner, baseEnv, ...seen.hooks });
    const texts = seen.logs.map((line) => line.text);
    // Reserved names are dropped, and said so before the tool's own lines.
    expect(texts.slice(0, 2)).toEqual([
      '[loadplane] PATH is not passed to the tool: PATH is set by the agent itself and cannot be overridden',
      '[loadplane] LD_PRELOAD is not passed to the tool: LD_* is read by the C library, the dynamic loader or OpenSSL',
    ]);
    expect(texts.slice(2).sort()).toEqual([`api=*** path=${baseEnv.PATH} tool=tool-wins ld=unset`, '***'].sort());
    expect(result.outcome).toEqual({ status: 'failed', reason: 'exit code 3' });
  });

  test('a stored variable whose name is now reserved is left out, the log says so once first, the run goes on', async () => {
    const seen = collector();
    const tool = fakeTool({ argv: ['sh', '-c', 'echo "home=${PYTHONHOME:-unset} ok=$OK"; echo "leak old-python-home"'] });
    const env = { PYTHONHOME: 'old-python-home', SHELLOPTS: 'xtrace', OK: 'ok' };
    const result = await runAssignment({ progressQuietMs: noProgressLines, tool, assignment: { ...assignment, env }, runner, baseEnv, ...seen.hooks });
    expect(result.outcome).toEqual({ status: 'completed' });
    const texts = seen.logs.map((line) => line.text);
    expect(texts.slice(0, 2)).toEqual([
      '[loadplane] PYTHONHOME is not passed to the tool: PYTHON* is read by Python (Locust runs on it)',
      '[loadplane] SHELLOPTS is not passed to the tool: SHELLOPTS is read by the shell',
    ]);
    // sh started without SHELLOPTS=xtrace (no `+ echo` trace lines), and the dropped value is masked all the same.
    expect(texts.slice(2).sort()).toEqual(['home=unset ok=ok', 'leak ***'].sort());
  });

  test('a reason that quotes a secret is masked too', async () => {
    const tool = fakeTool({ argv: ['sh', '-c', 'exit 0'] });
    const leaky: LoadTool = { ...tool, createParser: (a) => ({ ...tool.createParser(a), outcome: () => ({ status: 'failed', reason: 'threshold on super-secret-key crossed' }) }) };
    const result = await runAssignment({ progressQuietMs: noProgressLines, tool: leaky, assignment: { ...assignment, env: { K: 'super-secret-key' } }, runner, baseEnv });
    expect(result.outcome.reason).toBe('threshold on *** crossed');
  });
});

