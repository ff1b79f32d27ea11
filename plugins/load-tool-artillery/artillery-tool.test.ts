import { describe, expect, test } from 'bun:test';
import { type Assignment, LatencyHistogram } from 'loadplane/plugin';
import { artilleryCommand, artilleryPhases } from './artillery-command.ts';
import { artilleryOutcome } from './artillery-exit-codes.ts';
import { artilleryMetricsPlugin } from './artillery-metrics-plugin.ts';
import { createArtilleryParser } from './artillery-output-parser.ts';
import { validateArtilleryScript } from './artillery-script-check.ts';
import { createArtilleryTool } from './artillery-tool.ts';

const script = 'config:\n  target: http://127.0.0.1:1\n  phases:\n    - duration: 1\n      arrivalRate: 1\nscenarios:\n  - flow:\n      - get:\n          url: /\n';
const assignment = (overrides: Partial<Assignment> = {}): Assignment => ({
  assignmentId: 'as-1',
  taskId: 'task-1',
  testId: 'test-1',
  tool: 'artillery',
  script,
  config: null,
  machineIndex: 0,
  machineCount: 1,
  ...overrides,
});

describe('command', () => {
  test('no config: the script\'s phases; our plugin and preload beside it', () => {
    const command = artilleryCommand(assignment(), '/opt/artillery');
    expect(command.argv).toEqual(['/opt/artillery', 'run', 'script.yml']);
    expect(Object.keys(command.files!).sort()).toEqual(['artillery-plugin-loadplane.js', 'loadplane-preload.js', 'script.yml']);
    expect(command.env).toMatchObject({
      LOADPLANE_TASK_ID: 'task-1',
      ARTILLERY_PLUGINS: '{"loadplane":{}}',
      ARTILLERY_DISABLE_TELEMETRY: 'true',
      NODE_OPTIONS: '--require ./loadplane-preload.js',
    });
  });

  test('vus and duration: this machine\'s share as one phase of arrivals per second', () => {
    const command = artilleryCommand(assignment({ config: { vus: 10, duration: '90s' }, machineIndex: 2, machineCount: 3 }), 'artillery');
    expect(command.argv).toEqual(['artillery', 'run', '--overrides', '{"config":{"phases":[{"duration":90,"arrivalRate":3}]}}', 'script.yml']);
  });

  test('stages: ramps from the previous target, constant stages plain, whole seconds', () => {
    const stages = [
      { duration: '30s', target: 10 },
      { duration: '1m', target: 10 },
      { duration: '1500ms', target: 0 },
      { duration: '5s', target: 0 },
    ];
    expect(artilleryPhases({ stages })).toEqual([
      { duration: 30, arrivalRate: 0, rampTo: 10 },
      { duration: 60, arrivalRate: 10 },
      { duration: 2, arrivalRate: 10, rampTo: 0 },
      { duration: 5, arrivalRate: 0 },
    ]);
    expect(artilleryPhases({})).toBeNull();
    const second = artilleryCommand(assignment({ config: { stages }, machineIndex: 1, machineCount: 2 }), 'artillery');
    expect(JSON.parse(second.argv[3]!)).toEqual({ config: { phases: artilleryPhases({ stages: stages.map((s) => ({ ...s, target: s.target / 2 })) }) } });
  });

  test('a machine whose share is 0 only runs `artillery --version`', () => {
    expect(artilleryCommand(assignment({ config: { vus: 1, duration: '10s' }, machineIndex: 1, machineCount: 2 }), 'artillery').argv).toEqual(['artillery', '--version']);
  });
});

describe('parser', () => {
  test('snapshot lines merge and stay out of the log; failed ensure checks and errors reach the outcome', () => {
    const parser = createArtilleryParser(() => 1_000);
    const histogram = new LatencyHistogram();
    for (const value of [3, 4, 250]) histogram.record(value);
    const line = `LOADPLANE_METRICS ${JSON.stringify({ requests: 3, errors: 1, startedAt: 5_000, endedAt: 5_800, histogram: histogram.encode() })}`;
    expect(parser.onOutput('out', line)).toBeNull();
    expect(parser.onOutput('out', line.replace('"requests":3', '"requests":"3"'))).toBeNull(); // refused, not counted
    expect(parser.onOutput('out', 'http.codes.200: .......... 120')).toBe('http.codes.200: .......... 120');
    expect(parser.onOutput('out', '\u001b[31mfail\u001b[39m: http.response_time.p95 < 1')).toBe('fail: http.response_time.p95 < 1');
    const interval = parser.takeInterval(6_000)!;
    expect(interval).toMatchObject({ requests: 3, errors: 1, startedAt: 5_000, endedAt: 5_800 });
    expect(LatencyHistogram.decode(interval.histogram).percentile(50)).toBeCloseTo(4, 2);
    expect(parser.summary().requests).toBe(3);
    expect(parser.outcome(1, null)).toEqual({ status: 'failed', reason: 'ensure checks failed: http.response_time.p95 < 1' });
    expect(parser.outcome(0, null)).toEqual({ status: 'completed' });
  });

  test('exit codes', () => {
    const parser = createArtilleryParser();
    parser.onOutput('out', 'Scenario validation error: "[0].flow[0].get.url" is required');
    expect(parser.outcome(1, null)).toEqual({ status: 'failed', reason: 'artillery failed: Scenario validation error: "[0].flow[0].get.url" is required (exit code 1)' });
    expect(artilleryOutcome(143, null)).toEqual({ status: 'failed', reason: 'artillery was stopped by SIGTERM (exit code 143)' });
    expect(artilleryOutcome(7, null)).toEqual({ status: 'failed', reason: 'artillery failed (exit code 7)' });
    expect(artilleryOutcome(null, 'SIGKILL')).toEqual({ status: 'failed', reason: 'killed by SIGKILL' });
  });
});

describe('validation', () => {
  test('accepts Artillery scripts in YAML or JSON', () => {
    expect(validateArtilleryScript(script)).toBeNull();
    expect(validateArtilleryScript(JSON.stringify({ config: { target: 'http://x' }, scenarios: [{ name: 'a', flow: [{ get: { url: '/' } }, { think: 1 }] }] }))).toBeNull();
    expect(validateArtilleryScript('config:\n  target: http://x\nscenarios:\n  - engine: playwright\n    testFunction: run\n')).toBeNull();
  });

  test('refuses what Artillery would not run, saying why', () => {
    expect(validateArtilleryScript('')).toBe('script must not be empty');
    expect(validateArtilleryScript('config: [unclosed\n')).toMatch(/^the script is not valid YAML: /);
    expect(validateArtilleryScript('- a\n- b\n')).toMatch(/is a YAML \(or JSON\) mapping/);
    expect(validateArtilleryScript('scenarios: []\n')).toMatch(/needs a config section/);
    expect(validateArtilleryScript('config:\n  phases: []\nscenarios: []\n')).toMatch(/config.target must be/);
    expect(validateArtilleryScript('config:\n  target: http://x\n  phases: [{arrivalRate: 1}]\nscenarios: [{flow: [{get: {url: /}}]}]\n')).toMatch(/phases\[0\] needs a duration/);
    expect(validateArtilleryScript('config:\n  target: http://x\n  processor: ./p.js\nscenarios: [{flow: [{get: {url: /}}]}]\n')).toMatch(/processors cannot be loaded/);
    expect(validateArtilleryScript('config:\n  target: http://x\nscenarios: [{flow: []}]\n')).toMatch(/scenarios\[0\] needs a flow/);
    expect(validateArtilleryScript('config:\n  target: http://x\nscenarios: [{flow: [get]}]\n')).toMatch(/flow\[0\] must be a step/);
  });
});

describe('the metrics plugin', () => {
  // Loads the shipped plugin as Artillery's worker would (LOCAL_WORKER_ID set) with a stand-in for fs: its snapshot
  // must be, byte for byte, what LatencyHistogram encodes for the same latencies.
  function loadPlugin() {
    const written: string[] = [];
    const module = { exports: {} as { Plugin: new (script: unknown) => { cleanup(done: (error: null) => void): void } } };
    const fakeRequire = (name: string) => {
      if (name === 'fs') return { writeSync: (_fd: number, text: string) => written.push(text) };
      throw new Error(`unexpected require(${name})`);
    };
    new Function('require', 'module', 'exports', 'process', artilleryMetricsPlugin)(fakeRequire, module, module.exports, {
      env: { LOCAL_WORKER_ID: '1', LOADPLANE_METRICS_INTERVAL: '3600' },
      on: () => {},
    });
    return { Plugin: module.exports.Plugin, written };
  }

  test('hooks every scenario and encodes as LatencyHistogram does', () => {
    const { Plugin, written } = loadPlugin();
    const script = { config: {} as { processor?: Record<string, (...args: unknown[]) => void> }, scenarios: [{ flow: [] }, { flow: [], afterResponse: 'mine' }] };
    const plugin = new Plugin(script);
    expect(script.scenarios[1]).toMatchObject({ afterResponse: ['mine', 'loadplaneAfterResponse'], beforeRequest: ['loadplaneBeforeRequest'], onError: ['loadplaneOnError'] });
    const processor = script.config.processor!;
    const values = [0, 0.0005, 1, 2.047, 2.048, 2.049, 5.5, 15.123456, 1023.9, 4096.5, 123456.789, 3_700_000];
    const done = () => {};
    values.forEach((firstByte, i) => {
      const request = {};
      processor.loadplaneBeforeRequest!(request, {}, {}, done);
      processor.loadplaneAfterResponse!(request, { statusCode: i % 4 ? 200 : 503, timings: { phases: { firstByte } } }, {}, {}, done);
    });
    const failed = {};
    processor.loadplaneBeforeRequest!(failed, {}, {}, done);
    processor.loadplaneOnError!(new Error('ECONNREFUSED'), failed, {}, {}, done);
    plugin.cleanup(() => {});
    plugin.cleanup(() => {});
    // One endpoint line (the requests had neither name nor URL), then the snapshot; the second cleanup had nothing.
    expect(written.length).toBe(2);
    const endpoint = JSON.parse(written[0]!.slice('LOADPLANE_ENDPOINT '.length).trim()) as { name: string; requests: number; errors: number; failures: unknown[] };
    expect(endpoint).toMatchObject({ name: '(unnamed)', requests: values.length + 1, errors: 3 + 1 });
    expect(endpoint.failures).toEqual([
      { kind: 'status', code: '503', message: 'status 503', count: 3 },
      { kind: 'network', code: 'Error', message: 'ECONNREFUSED', count: 1 },
    ]);
    const snapshot = JSON.parse(written[1]!.slice('LOADPLANE_METRICS '.length).trim()) as { requests: number; errors: number; histogram: { count: number } };
    expect(snapshot.requests).toBe(values.length + 1);
    expect(snapshot.errors).toBe(3 + 1);
    const expected = new LatencyHistogram();
    for (const value of values) expected.record(value);
    const decoded = LatencyHistogram.decode(snapshot.histogram as never);
    expect(decoded.count).toBe(values.length + 1);
    // Without the refused request (timed from its start: a tiny latency), the encoding is LatencyHistogram's own.
    const { Plugin: Again, written: again } = loadPlugin();
    const other = { config: {} as { processor?: Record<string, (...args: unknown[]) => void> }, scenarios: [{ flow: [] }] };
    const second = new Again(other);
    for (const firstByte of values) other.config.processor!.loadplaneAfterResponse!({}, { statusCode: 200, timings: { phases: { firstByte } } }, {}, {}, done);
    second.cleanup(() => {});
    expect((JSON.parse(again.at(-1)!.slice('LOADPLANE_METRICS '.length)) as { histogram: unknown }).histogram).toEqual(expected.encode());
  });

  test('in Artillery\'s main thread it does nothing', () => {
    const written: string[] = [];
    const module = { exports: {} as { Plugin: new (script: unknown) => unknown } };
    new Function('require', 'module', 'exports', 'process', artilleryMetricsPlugin)(() => ({ writeSync: (_: number, t: string) => written.push(t) }), module, module.exports, { env: {}, on: () => {} });
    const script = { config: {}, scenarios: [{ flow: [] }] };
    new module.exports.Plugin(script);
    expect(script).toEqual({ config: {}, scenarios: [{ flow: [] }] });
  });
});

test('tool: available() uses the injected lookup', async () => {
  expect(await createArtilleryTool({ binary: '/opt/artillery', which: async (p) => p, version: '2.0.21' }).available()).toEqual({ ok: true, version: '2.0.21' });
  expect(await createArtilleryTool({ which: async () => null }).available()).toEqual({
    ok: false,
    reason: 'artillery not found ("artillery"): install Artillery, put it on PATH or set ARTILLERY_BIN',
  });
});
