import { describe, expect, test } from 'bun:test';
import { type Assignment, LatencyHistogram } from 'loadplane/plugin';
import { customCommand } from './custom-command.ts';
import { createCustomParser } from './custom-parser.ts';
import { createCustomTool, validateCustomScript } from './custom-tool.ts';
import { parseSampleLine } from './sample-line.ts';

const assignment = (overrides: Partial<Assignment> = {}): Assignment => ({
  assignmentId: 'as-1',
  taskId: 'task-1',
  testId: 'test-1',
  tool: 'custom',
  script: 'echo hi',
  config: null,
  machineIndex: 0,
  machineCount: 1,
  ...overrides,
});

describe('sample lines', () => {
  test('the protocol', () => {
    expect(parseSampleLine('loadplane:sample 12')).toEqual({ latencyMs: 12, failed: false });
    expect(parseSampleLine('loadplane:sample 3.75 ok')).toEqual({ latencyMs: 3.75, failed: false });
    expect(parseSampleLine('loadplane:sample  40\terror  ')).toEqual({ latencyMs: 40, failed: true });
    // A name after the status (spaces allowed), and a code after `error:`.
    expect(parseSampleLine('loadplane:sample 5 ok GET /api/products ')).toEqual({ latencyMs: 5, failed: false, name: 'GET /api/products' });
    expect(parseSampleLine('loadplane:sample 7 error:500 checkout')).toEqual({ latencyMs: 7, failed: true, code: '500', name: 'checkout' });
    expect(parseSampleLine('loadplane:sample 7 error:timeout')).toEqual({ latencyMs: 7, failed: true, code: 'timeout' });
    for (const notASample of ['loadplane:sample', 'loadplane:sample fast', 'loadplane:sample -1', 'loadplane:sample 5 maybe', 'loadplane:samples 5', 'x loadplane:sample 5', 'loadplane:sample 5 ok:200 x', 'loadplane:sample 5 error:']) {
      expect(parseSampleLine(notASample)).toBeNull();
    }
  });

  test('the parser records stdout samples, logs everything else', () => {
    let clock = 1_000;
    const parser = createCustomParser(() => clock);
    expect(parser.onOutput('out', 'starting')).toBe('starting');
    expect(parser.onOutput('out', 'loadplane:sample 10 ok')).toBeNull();
    expect(parser.onOutput('out', 'loadplane:sample 20 error')).toBeNull();
    expect(parser.onOutput('err', 'loadplane:sample 30 ok')).toBe('loadplane:sample 30 ok');
    expect(parser.onOutput('out', 'loadplane:sample oops')).toBe('loadplane:sample oops');
    clock = 1_500;
    const first = parser.takeInterval(clock)!;
    expect(first.requests).toBe(2);
    expect(first.errors).toBe(1);
    expect(parser.takeInterval(clock)).toBeNull();
    parser.onOutput('out', 'loadplane:sample 30');
    clock = 2_000;
    const summary = parser.summary();
    expect(summary).toMatchObject({ requests: 3, errors: 1, startedAt: 1_000, endedAt: 2_000 });
    expect(LatencyHistogram.decode(summary.histogram).percentile(50)).toBeCloseTo(20, 1);
  });

  test('named samples are the endpoints of the interval; failures grouped by code', () => {
    const parser = createCustomParser(() => 1_000);
    parser.onOutput('out', 'loadplane:sample 10 ok GET /a');
    parser.onOutput('out', 'loadplane:sample 30 error:500 GET /a');
    parser.onOutput('out', 'loadplane:sample 40 error:timeout slow one');
    parser.onOutput('out', 'loadplane:sample 50 error');
    const interval = parser.takeInterval(1_000)!;
    expect(interval).toMatchObject({ requests: 4, errors: 3 });
    expect(interval.endpoints!.map(({ name, requests, errors }) => ({ name, requests, errors }))).toEqual([
      { name: 'GET /a', requests: 2, errors: 1 },
      { name: 'slow one', requests: 1, errors: 1 },
    ]);
    expect(LatencyHistogram.decode(interval.endpoints![1]!.histogram).percentile(50)).toBeCloseTo(40, 1);
    expect(interval.errorGroups).toEqual([
      { endpoint: 'GET /a', kind: 'status', code: '500', message: 'status 500', count: 1 },
      { endpoint: 'slow one', kind: 'script', code: 'timeout', message: 'the script reported error timeout', count: 1 },
      { endpoint: '', kind: 'script', code: 'error', message: 'the script reported an error', count: 1 },
    ]);
  });

  test('outcome', () => {
    const parser = createCustomParser();
    expect(parser.outcome(0, null)).toEqual({ status: 'completed' });
    expect(parser.outcome(2, null)).toEqual({ status: 'failed', reason: 'exit code 2' });
    expect(parser.outcome(null, 'SIGKILL')).toEqual({ status: 'failed', reason: 'killed by SIGKILL' });
  });
});

describe('command', () => {
  test('a shebang script runs directly; anything else with sh', () => {
    expect(customCommand(assignment({ script: '#!/usr/bin/env python3\nprint(1)\n' }))).toMatchObject({
      argv: ['./script'],
      files: { script: '#!/usr/bin/env python3\nprint(1)\n' },
    });
    expect(customCommand(assignment({ script: 'echo hi' }))).toMatchObject({ argv: ['sh', 'script.sh'], files: { 'script.sh': 'echo hi' } });
  });

  test('env: task, machine, this machine\'s share of the config', () => {
    expect(customCommand(assignment()).env).toEqual({
      LOADPLANE_TASK_ID: 'task-1',
      LOADPLANE_TEST_ID: 'test-1',
      LOADPLANE_ASSIGNMENT_ID: 'as-1',
      LOADPLANE_MACHINE_INDEX: '0',
      LOADPLANE_MACHINE_COUNT: '1',
    });
    const simple = customCommand(assignment({ config: { vus: 10, duration: '1m30s' }, machineIndex: 1, machineCount: 3 })).env!;
    expect(simple).toMatchObject({ LOADPLANE_VUS: '3', LOADPLANE_DURATION_SECONDS: '90', LOADPLANE_MACHINE_INDEX: '1', LOADPLANE_MACHINE_COUNT: '3' });
    const staged = customCommand(
      assignment({ config: { stages: [{ duration: '10s', target: 4 }, { duration: '500ms', target: 0 }] }, machineIndex: 0, machineCount: 2 }),
    ).env!;
    expect(staged.LOADPLANE_VUS).toBe('2');
    expect(staged.LOADPLANE_DURATION_SECONDS).toBe('10.5');
    expect(JSON.parse(staged.LOADPLANE_STAGES!)).toEqual([{ duration: '10s', target: 2 }, { duration: '500ms', target: 0 }]);
  });
});

describe('tool', () => {
  test('validateScript', () => {
    expect(validateCustomScript('echo hi')).toBeNull();
    expect(validateCustomScript('')).toBe('script must not be empty');
    expect(validateCustomScript(' \n\t')).toBe('script must not be empty');
    expect(validateCustomScript('echo a\0b')).toMatch(/NUL/);
  });

  test('available() checks sh when it can look programs up', async () => {
    expect(await createCustomTool().available()).toEqual({ ok: true });
    expect(await createCustomTool({ which: async () => '/bin/sh' }).available()).toEqual({ ok: true });
    expect(await createCustomTool({ which: async () => null }).available()).toEqual({ ok: false, reason: 'sh not found on PATH' });
  });
});
