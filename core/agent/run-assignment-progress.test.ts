/** runAssignment's progress lines, on a manual clock and a scripted process: no sleeps, time moves when the test says. */
import { describe, expect, test } from 'bun:test';
import { createManualClock } from '../../tests/helpers/manual-clock.ts';
import { createScriptedRunner } from '../../tests/helpers/scripted-process-runner.ts';
import type { Assignment, LoadTool, MetricSnapshot } from '../capabilities/load-tool.ts';
import { MetricRecorder } from '../domain/metrics/metric-recorder.ts';
import { progressPrefix } from './progress-line.ts';
import { type LogLine, runAssignment } from './run-assignment.ts';

const assignment: Assignment = { assignmentId: 'a-1', taskId: 't-1', testId: 'test-1', tool: 'quiet', script: '', config: null, machineIndex: 0, machineCount: 1 };

/** A tool whose `S <ms> ok|error` stdout lines are requests (kept out of the log, as metric lines are); it keeps every line its parser read. */
function quietTool(read: string[]): LoadTool {
  return {
    tool: 'quiet',
    validateScript: () => null,
    available: async () => ({ ok: true }),
    command: () => ({ argv: ['quiet-engine'] }),
    createParser() {
      const recorder = new MetricRecorder(() => 0);
      return {
        onOutput(_source, line) {
          read.push(line);
          if (!line.startsWith('S ')) return line;
          const [, ms, status] = line.split(' ');
          recorder.request(Number(ms), status === 'error', 0);
          return null;
        },
        takeInterval: () => recorder.takeInterval(0),
        summary: () => recorder.summary(0),
        outcome: (code) => (code === 0 ? { status: 'completed' } : { status: 'failed', reason: `exit code ${code}` }),
      };
    },
  };
}

/** Starts a run on a manual clock; resolves once the tool runs and the agent's timers are set. */
async function startRun(env: Record<string, string> = {}) {
  const clock = createManualClock();
  const { runner, spawned } = createScriptedRunner();
  const logs: LogLine[] = [];
  const metrics: MetricSnapshot[] = [];
  const read: string[] = [];
  let running!: () => void;
  const started = new Promise<void>((resolve) => (running = resolve));
  const result = runAssignment({
    tool: quietTool(read),
    assignment: { ...assignment, env },
    runner,
    clock,
    onLog: (line) => logs.push(line),
    onMetrics: (snapshot) => metrics.push(snapshot),
    onStarted: () => running(),
  });
  const process = await spawned;
  await started; // resolves after onStarted's caller went on to set the metrics timer
  const progress = () => logs.filter((line) => line.text.startsWith(progressPrefix));
  return { clock, process, logs, metrics, read, result, progress, startedAt: clock.now() };
}

const elapsedOf = (line: LogLine) => Number(/progress: (\d+) s/.exec(line.text)?.[1]);

describe('runAssignment: progress lines in a quiet log', () => {
  test('a tool that only sends metrics gets a line every 2 s of its run, with its figures; parsers and figures are untouched', async () => {
    const run = await startRun();
    // 10 s: 100 requests a second, on stdout lines the parser keeps out of the log, so the log hears nothing.
    for (let second = 0; second < 10; second++) {
      for (let i = 0; i < 100; i++) run.process.print('out', `S ${10 + (i % 5)} ${i === 0 ? 'error' : 'ok'}`);
      run.clock.advance(1_000);
    }
    run.process.print('out', 'done');
    run.process.exit(0);
    const result = await run.result;

    const lines = run.progress();
    expect(lines.map(elapsedOf)).toEqual([2, 4, 6, 8, 10]);
    expect(lines.map((line) => line.ts - run.startedAt)).toEqual([2_000, 4_000, 6_000, 8_000, 10_000]);
    expect(lines.every((line) => line.source === 'out')).toBe(true);
    for (const line of lines) expect(line.text).toMatch(/^\[loadplane\] progress: \d+ s, [\d,]+ requests \(\d+\.\d\/s\), errors 1\.0 %, p95 1\d\.\d ms$/);
    // Each line counts what the snapshots before it counted: a second behind the tool at most.
    const counted = lines.map((line) => Number(/s, ([\d,]+) requests/.exec(line.text)![1]!.replace(/,/g, '')));
    counted.forEach((requests, index) => expect(requests).toBeGreaterThanOrEqual((index + 1) * 200 - 100));
    // The agent's lines are not the tool's output: no parser read one, and the figures are the tool's alone.
    expect(run.read.some((line) => line.startsWith('[loadplane]'))).toBe(false);
    expect(result.summary.requests).toBe(1_000);
    expect(result.summary.errors).toBe(10);
    expect(run.metrics.reduce((sum, snapshot) => sum + snapshot.requests, 0)).toBe(1_000);
    expect(result.outcome).toEqual({ status: 'completed' });
    // None after the tool ended, and no timer left running.
    expect(run.logs.at(-1)!.text).toBe('done');
    expect(run.clock.pending()).toBe(0);
  });

  test('a tool that prints its own progress at least every 2 s gets no agent line', async () => {
    const run = await startRun();
    for (let second = 0; second < 30; second++) {
      run.process.print('err', `running (${second}s), 2/2 VUs`);
      run.process.print('out', 'S 12 ok');
      run.clock.advance(1_000);
    }
    run.process.exit(0);
    await run.result;
    expect(run.progress()).toEqual([]);
    expect(run.logs).toHaveLength(30);
  });

  test('warm-up, then a chatty spell, then silence: lines exactly where the log went quiet for 2 s', async () => {
    const run = await startRun();
    run.process.print('out', 'compiling the simulation');
    run.clock.advance(5_000); // lines at 2 s and 4 s: no requests yet
    for (let second = 0; second < 5; second++) {
      run.process.print('out', 'S 20 ok');
      run.process.print('out', `tick ${second}`);
      run.clock.advance(1_000); // 5 s .. 10 s: the tool speaks, the agent does not
    }
    run.clock.advance(2_500); // quiet from 9 s: a line at 11 s (12.5 s when it ends)
    run.process.exit(0);
    await run.result;
    expect(run.progress().map((line) => [elapsedOf(line), line.text.includes('no requests yet')])).toEqual([
      [2, true],
      [4, true],
      [11, false],
    ]);
  });

  test('progress lines are masked like every line of the run', async () => {
    const run = await startRun({ WORDS: 'no requests yet' });
    run.clock.advance(2_000);
    run.process.exit(0);
    await run.result;
    expect(run.progress().map((line) => line.text)).toEqual(['[loadplane] progress: 2 s, ***']);
  });
});
