import { describe, expect, test } from 'bun:test';
import { type Assignment, LatencyHistogram, loadToolCapability, moduleRuntimePort, readEngineSnapshot, silentLogger } from 'loadplane/plugin';
import { createKernel } from 'loadplane/plugin/testing';
import type { EnginePlan } from './engine/plan.ts';
import { RunStats } from './engine/run-stats.ts';
import { createHttpParser, httpOutcome } from './http-output-parser.ts';
import { httpCommand } from './http-command.ts';
import { httpPlan } from './http-plan.ts';
import { createHttpTool, engineModule } from './http-tool.ts';
import httpPlugin from './index.ts';

const script = 'base_url: http://127.0.0.1:9\nsteps:\n  - {method: GET, url: /a}\n  - {name: b, method: POST, url: /b, body: x}\n';
const assignment = (overrides: Partial<Assignment> = {}): Assignment => ({
  assignmentId: 'as-1',
  taskId: 'task-1',
  testId: 'test-1',
  tool: 'http',
  script,
  config: null,
  machineIndex: 0,
  machineCount: 1,
  ...overrides,
});

describe('plan: this machine\'s share of the load', () => {
  test('no load config: one VU runs the steps once', () => {
    const plan = httpPlan(assignment());
    expect(plan.load).toEqual({ kind: 'iterations', vus: 1, iterations: 1 });
    expect(plan.steps.map((step) => step.name)).toEqual(['GET /a', 'b']);
    expect(plan).toMatchObject({ timeoutMs: 30_000, metricsIntervalMs: 1_000, progressIntervalMs: 1_000 });
    expect(plan.description).toBe('1 VU running the steps once (no load config)');
  });

  test('vus + duration: one constant segment of this machine\'s VUs', () => {
    const plan = httpPlan(assignment({ config: { vus: 10, duration: '1m30s' }, machineIndex: 1, machineCount: 3 }));
    expect(plan.load).toEqual({ kind: 'segments', segments: [{ durationMs: 90_000, from: 3, to: 3 }] });
    expect(plan.description).toBe('3 VUs for 1m30s (machine 2 of 3)');
  });

  test('stages: consecutive linear ramps, each from the previous target (0 first)', () => {
    const plan = httpPlan(assignment({ config: { stages: [{ duration: '10s', target: 8 }, { duration: '5s', target: 8 }, { duration: '500ms', target: 2 }] }, machineIndex: 0, machineCount: 2 }));
    expect(plan.load).toEqual({
      kind: 'segments',
      segments: [
        { durationMs: 10_000, from: 0, to: 4 },
        { durationMs: 5_000, from: 4, to: 4 },
        { durationMs: 500, from: 4, to: 1 },
      ],
    });
  });

  test('a share of 0 VUs: no segments, nothing to run', () => {
    expect(httpPlan(assignment({ config: { vus: 1, duration: '10s' }, machineIndex: 1, machineCount: 2 })).load).toEqual({ kind: 'segments', segments: [] });
  });

  test('a script the server would refuse fails the plan with its message', () => {
    expect(() => httpPlan(assignment({ script: 'steps: []' }))).toThrow('steps must be a non-empty list of steps');
  });
});

describe('command', () => {
  const engine = ['/opt/bun', '--no-install', '/plugins/load-tool-http/engine/main.ts'];

  test('the engine on plan.json, the plan in the work directory, the run\'s facts in the environment', () => {
    const command = httpCommand(assignment({ config: { vus: 2, duration: '5s' } }), engine);
    expect(command.argv).toEqual([...engine, 'plan.json']);
    expect(command.env).toEqual({ LOADPLANE_TASK_ID: 'task-1', LOADPLANE_MACHINE_INDEX: '0', LOADPLANE_MACHINE_COUNT: '1' });
    const plan = JSON.parse(command.files!['plan.json']!) as EnginePlan;
    expect(plan.steps[1]).toEqual({ name: 'b', method: 'POST', url: 'http://127.0.0.1:9/b', headers: {}, body: 'x', expectStatus: null, bodyContains: null });
    expect(plan.load).toEqual({ kind: 'segments', segments: [{ durationMs: 5_000, from: 2, to: 2 }] });
  });

  test('the tool without a module runtime (the server) is not available and builds no command', async () => {
    const tool = createHttpTool();
    expect(await tool.available()).toEqual({ ok: false, reason: 'this host cannot start the http engine (it provides no module runtime)' });
    expect(() => tool.command(assignment())).toThrow('no module runtime');
    expect(await createHttpTool({ engine }).available()).toEqual({ ok: true });
  });

  test('it runs no code of the test\'s author: offered where runs cannot be isolated', () => {
    expect(createHttpTool().runsAuthorCode).toBe(false);
  });
});

describe('plugin setup', () => {
  test('with the host\'s module runtime, the engine module is asked for in setup; without one (the server), the tool still validates', async () => {
    const asked: URL[] = [];
    const agent = await createKernel({
      plugins: [httpPlugin],
      logger: silentLogger,
      provided: [[moduleRuntimePort, { command: (module: URL) => (asked.push(module), ['/runtime', module.pathname]) }]],
    });
    const [tool] = agent.getAll(loadToolCapability);
    expect(asked.map(String)).toEqual([engineModule.href]);
    expect(engineModule.pathname).toEndWith('/plugins/load-tool-http/engine/main.ts');
    expect(tool!.command(assignment()).argv).toEqual(['/runtime', engineModule.pathname, 'plan.json']);
    await agent.stop();

    const server = await createKernel({ plugins: [httpPlugin], logger: silentLogger });
    const [serverTool] = server.getAll(loadToolCapability);
    expect(serverTool!.validateScript(script)).toBeNull();
    expect((await serverTool!.available()).ok).toBe(false);
    await server.stop();
  });
});

describe('parser', () => {
  test('machine snapshots are the metrics, step lines stay out of the log, every other line is logged', () => {
    const stats = new RunStats(['GET /a', 'b']);
    stats.record('GET /a', 2.5, null, 1_000);
    stats.record('b', 7.25, { kind: 'status', code: '500', message: 'status 500, expected below 400' }, 1_010);
    stats.record('b', 3, null, 1_020);
    const lines = stats.takeLines(2);
    expect(lines.map((line) => line.split(' ')[0])).toEqual(['LOADPLANE_STEP', 'LOADPLANE_STEP', 'LOADPLANE_METRICS']);
    // A step line is an engine snapshot too (name, errors by kind and code besides), kept for per-endpoint results.
    const step = JSON.parse(lines[1]!.slice('LOADPLANE_STEP '.length)) as { name: string; errorsByKind: unknown; failures: unknown };
    expect(step).toMatchObject({ name: 'b', requests: 2, errors: 1, errorsByKind: { status: 1, network: 0, check: 0 } });
    expect(step.failures).toEqual([{ kind: 'status', code: '500', message: 'status 500, expected below 400', count: 1 }]);
    expect(readEngineSnapshot(lines[1]!.slice('LOADPLANE_STEP '.length))).toMatchObject({ requests: 2, errors: 1, startedAt: 1_010, endedAt: 1_020 });

    let clock = 5_000;
    const parser = createHttpParser(() => clock);
    expect(parser.onOutput('out', '[http] 2 steps, 2 VUs for 5s; a request times out after 30s')).toContain('2 VUs for 5s');
    for (const line of lines) expect(parser.onOutput('out', line)).toBeNull();
    expect(parser.onOutput('out', 'LOADPLANE_METRICS {torn')).toBeNull();
    clock = 6_000;
    const interval = parser.takeInterval(clock)!;
    expect(interval).toMatchObject({ requests: 3, errors: 1, startedAt: 1_000, endedAt: 1_020 });
    expect(LatencyHistogram.decode(interval.histogram).percentile(100)).toBe(7.25);
    expect(parser.takeInterval(clock)).toBeNull();
    expect(parser.summary()).toMatchObject({ requests: 3, errors: 1 });
    expect(stats.takeLines(0)).toEqual([]);
  });

  test('each interval\'s lines hold that interval alone; the summary keeps the whole run', () => {
    const stats = new RunStats(['a', 'b', 'a']);
    stats.record('a', 1, { kind: 'status', code: '500', message: 'status 500, expected below 400' }, 1_000);
    stats.record('b', 2, null, 1_001);
    stats.takeLines(1);
    stats.recordAt(stats.slotOf('a'), 9, null, 2_000);
    const lines = stats.takeLines(1);
    // Only `a` had requests in the second interval: no line for `b`, and none of the first interval's figures.
    expect(lines.map((line) => line.split(' ')[0])).toEqual(['LOADPLANE_STEP', 'LOADPLANE_METRICS']);
    const step = JSON.parse(lines[0]!.slice('LOADPLANE_STEP '.length)) as { name: string; failures: unknown };
    expect(step).toMatchObject({ name: 'a', requests: 1, errors: 0, startedAt: 2_000, endedAt: 2_000, errorsByKind: { status: 0, network: 0, check: 0 } });
    expect(step.failures).toEqual([]);
    const a = readEngineSnapshot(lines[0]!.slice('LOADPLANE_STEP '.length))!;
    expect(a.histogram.percentile(0)).toBe(9);
    expect(a.histogram.count).toBe(1);
    expect(readEngineSnapshot(lines[1]!.slice('LOADPLANE_METRICS '.length))).toMatchObject({ requests: 1, errors: 0, startedAt: 2_000 });
    expect(stats.summaryLines().slice(2, 5).map((line) => line.split(/\s{2,}/).slice(0, 3).join(' '))).toEqual(['a 2 1', 'b 1 0', '(all steps) 3 1']);
    expect(() => stats.slotOf('c')).toThrow('no endpoint named c');
  });

  test('the machine\'s line and the summary hold every latency, merged from the endpoints\' histograms exactly', () => {
    const names = ['a', 'b', 'c'];
    const printing = new RunStats(names);
    const silent = new RunStats(names);
    const latencies = Array.from({ length: 3_000 }, (_, i) => ((i * 7919) % 4_000) / 7 + (i % 5 === 0 ? 900 : 0));
    let interval = new LatencyHistogram();
    latencies.forEach((latency, i) => {
      const failure = i % 97 === 0 ? ({ kind: 'network', code: 'timeout', message: 'no complete answer within 30 s' } as const) : null;
      printing.record(names[i % 3]!, latency, failure, 1_000 + i);
      silent.record(names[i % 3]!, latency, failure, 1_000 + i);
      interval.record(latency);
      // An interval every 700 requests; the last one stays under way when the summary is read.
      if (i % 700 === 699) {
        const machine = printing.takeLines(1).at(-1)!;
        expect(readEngineSnapshot(machine.slice('LOADPLANE_METRICS '.length))!.histogram.encode()).toEqual(interval.encode());
        interval = new LatencyHistogram();
      }
    });
    expect(printing.summaryLines()).toEqual(silent.summaryLines());
    printing.takeLines(0);
    expect(printing.summaryLines()).toEqual(silent.summaryLines());
  });

  test('outcome: 0 completed, SIGTERM named, an engine error line as the reason', () => {
    expect(httpOutcome(0, null, null)).toEqual({ status: 'completed' });
    expect(httpOutcome(143, null, null)).toEqual({ status: 'failed', reason: 'the http engine was stopped by SIGTERM' });
    expect(httpOutcome(null, 'SIGKILL', null)).toEqual({ status: 'failed', reason: 'killed by SIGKILL' });
    const parser = createHttpParser();
    expect(parser.onOutput('err', '[http] error: cannot read the plan: no such file')).toContain('cannot read the plan');
    expect(parser.outcome(2, null)).toEqual({ status: 'failed', reason: 'cannot read the plan: no such file (exit code 2)' });
  });

  test('the summary table: per step, errors by kind, percentiles; then each failure with its count', () => {
    const stats = new RunStats(['GET /a', 'b', 'GET /a']);
    for (let i = 1; i <= 100; i++) stats.record('GET /a', i, null, 1_000 + i);
    stats.record('b', 50, { kind: 'check', code: 'body_contains', message: 'the body does not contain "ok"' }, 2_000);
    stats.record('b', 60, { kind: 'network', code: 'timeout', message: 'no complete answer within 30 s' }, 2_001);
    expect(stats.summaryLines()).toEqual([
      '[http] summary',
      'step         requests  errors  status  network  check  p50 ms  p95 ms  p99 ms',
      'GET /a            100       0       0        0      0    50.0    95.0    99.0',
      'b                   2       2       0        1      1    50.0    60.0    60.0',
      '(all steps)       102       2       0        1      1    50.0    95.0    99.0',
      '[http] b: 1 × check body_contains: the body does not contain "ok"',
      '[http] b: 1 × network timeout: no complete answer within 30 s',
    ]);
  });
});
