import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Assignment, LatencyHistogram } from 'loadplane/plugin';
import { locustCommand } from './locust-command.ts';
import { locustEntry, stageSeconds } from './locust-entry.ts';
import { locustOutcome } from './locust-exit-codes.ts';
import { locustMetricsHook } from './locust-metrics-hook.ts';
import { createLocustParser } from './locust-output-parser.ts';
import { createLocustTool, validateLocustScript } from './locust-tool.ts';
import { checkPythonStructure } from './python-structure.ts';

const assignment = (overrides: Partial<Assignment> = {}): Assignment => ({
  assignmentId: 'as-1',
  taskId: 'task-1',
  testId: 'test-1',
  tool: 'locust',
  script: 'from locust import HttpUser\nclass U(HttpUser):\n    pass\n',
  config: null,
  machineIndex: 0,
  machineCount: 1,
  ...overrides,
});

const base = ['/opt/locust', '-f', 'loadplane_locustfile.py', '--headless', '--only-summary', '--exit-code-on-error', '0', '--stop-timeout', '30'];

describe('command', () => {
  test('no config: headless, the script (a shape, or one user until it stops) decides', () => {
    const command = locustCommand(assignment(), '/opt/locust');
    expect(command.argv).toEqual(base);
    expect(Object.keys(command.files!).sort()).toEqual(['loadplane_locustfile.py', 'loadplane_metrics.py', 'locustfile.py']);
    expect(command.files!['locustfile.py']).toBe(assignment().script);
    expect(command.files!['loadplane_metrics.py']).toBe(locustMetricsHook);
    expect(command.files!['loadplane_locustfile.py']).toBe(locustEntry());
    expect(command.env).toMatchObject({ LOADPLANE_TASK_ID: 'task-1', LOADPLANE_MACHINE_INDEX: '0', LOADPLANE_MACHINE_COUNT: '1', LOADPLANE_METRICS_INTERVAL: '1', PYTHONUNBUFFERED: '1' });
    expect(command.sampleFile).toBeUndefined();
  });

  test('vus and duration, this machine\'s share: all users at once, whole seconds', () => {
    expect(locustCommand(assignment({ config: { vus: 10, duration: '90s' }, machineIndex: 2, machineCount: 3 }), '/opt/locust').argv).toEqual([
      ...base,
      '-u',
      '3',
      '-r',
      '3',
      '--run-time',
      '90s',
    ]);
    expect(locustCommand(assignment({ config: { vus: 1, duration: '1500ms' } }), 'locust').argv.slice(-1)).toEqual(['2s']);
  });

  test('stages: a LoadTestShape in the entry with this machine\'s targets, no -u/-t', () => {
    const config = { stages: [{ duration: '30s', target: 10 }, { duration: '1m30s', target: 5 }, { duration: '500ms', target: 0 }] };
    const command = locustCommand(assignment({ config, machineIndex: 0, machineCount: 2 }), 'locust');
    expect(command.argv).toEqual(['locust', ...base.slice(1)]);
    expect(stageSeconds([{ duration: '30s', target: 5 }, { duration: '1m30s', target: 3 }])).toEqual([[30, 5], [90, 3]]);
    expect(command.files!['loadplane_locustfile.py']).toContain('_LP_STAGES = [[30,5],[90,3],[0.5,0]]');
    expect(command.files!['loadplane_locustfile.py']).toContain('class LoadplaneStages(_LpLoadTestShape):');
  });

  test('a machine whose share is 0 users only runs `locust --version`', () => {
    const command = locustCommand(assignment({ config: { vus: 2, duration: '10s' }, machineIndex: 2, machineCount: 3 }), 'locust');
    expect(command.argv).toEqual(['locust', '--version']);
  });
});

describe('parser', () => {
  const snapshot = (values: number[], errors: number, at: number) => {
    const histogram = new LatencyHistogram();
    for (const value of values) histogram.record(value);
    return `LOADPLANE_METRICS ${JSON.stringify({ requests: values.length, errors, startedAt: at, endedAt: at + 900, histogram: histogram.encode() })}`;
  };

  test('snapshot lines are merged and kept out of the log; other lines are logged', () => {
    const parser = createLocustParser(() => 1_000);
    expect(parser.onOutput('out', snapshot([1, 2, 30], 1, 10_000))).toBeNull();
    expect(parser.onOutput('out', snapshot([4, 500], 0, 11_000))).toBeNull();
    expect(parser.onOutput('out', 'LOADPLANE_METRICS {"requests":1,"torn')).toBeNull();
    expect(parser.onOutput('err', '[2026-11-23 10:38:12,345] host/INFO/locust.main: Starting Locust 2.47.0')).toBe(
      '[2026-11-23 10:38:12,345] host/INFO/locust.main: Starting Locust 2.47.0',
    );
    const interval = parser.takeInterval(12_000)!;
    expect(interval.requests).toBe(5);
    expect(interval.errors).toBe(1);
    expect(interval.startedAt).toBe(10_000);
    expect(interval.endedAt).toBe(11_900);
    const histogram = LatencyHistogram.decode(interval.histogram);
    expect(histogram.count).toBe(5);
    expect(histogram.max).toBeCloseTo(500, 0);
    expect(parser.takeInterval(13_000)).toBeNull();
    expect(parser.onOutput('out', snapshot([7], 0, 12_000))).toBeNull();
    const summary = parser.summary();
    expect(summary.requests).toBe(6);
    expect(LatencyHistogram.decode(summary.histogram).count).toBe(6);
  });

  test('outcome: exit codes with the last error Locust logged', () => {
    expect(createLocustParser().outcome(0, null)).toEqual({ status: 'completed' });
    const parser = createLocustParser();
    parser.onOutput('err', '  File "/w/locustfile.py", line 5');
    parser.onOutput('err', 'SyntaxError: expected \':\'');
    expect(parser.outcome(1, null)).toEqual({ status: 'failed', reason: "locust failed: SyntaxError: expected ':' (exit code 1)" });
    parser.onOutput('err', '[2026-11-23 10:38:12,345] host/ERROR/root: average response time above 1 ms');
    expect(parser.outcome(3, null)).toEqual({ status: 'failed', reason: 'locust failed: average response time above 1 ms (exit code 3)' });
    expect(locustOutcome(3, null)).toEqual({ status: 'failed', reason: 'the locustfile set exit code 3 (environment.process_exit_code)' });
    expect(locustOutcome(2, null).reason).toBe('an unhandled exception in a Locust greenlet (exit code 2)');
    expect(locustOutcome(null, 'SIGKILL')).toEqual({ status: 'failed', reason: 'killed by SIGKILL' });
  });
});

describe('validation', () => {
  const good = 'from locust import HttpUser, task, between\n\nclass Shop(HttpUser):\n    wait_time = between(1, 2)\n\n    @task(3)\n    def browse(self):\n        for path in ["/a", "/b"]:\n            self.client.get(path, name="[browse]")\n\n    @task\n    def cart(self):\n        if self.client.get("/cart").status_code != 200: print("odd")\n        self.client.post("/cart", json={"id": 1, "q": [1, 2]})\n';

  test('accepts real locustfiles', () => {
    expect(validateLocustScript(good)).toBeNull();
    const tricky = [
      'import locust',
      '',
      'class Base(locust.FastHttpUser):',
      '    abstract = True',
      '    """A docstring with a colon: and (an unclosed bracket',
      '    over two lines"""',
      '',
      'class Api(Base):',
      "    host = 'http://x' \\",
      "        '/api'",
      '    def on_start(self):',
      '        self.token = (',
      '            "a"  # a comment with ) in it',
      "            f'{1}'",
      '        )',
      '        data = {',
      "            'k': r'\\d+:',",
      '        }',
      '        lam = lambda: 1',
      '        try:',
      '            pass',
      '        except Exception as error:',
      '            raise',
      '        else:',
      '            pass',
      '',
      '    def noop(self): pass',
    ].join('\n');
    expect(validateLocustScript(tricky)).toBeNull();
  });

  test('refuses empty text, syntax errors, and files without a User class, saying where', () => {
    expect(validateLocustScript('')).toBe('script must not be empty');
    expect(validateLocustScript(good.replace('def browse(self):', 'def browse(self)'))).toBe("the locustfile is not valid Python: line 7: expected ':' after the def statement");
    expect(validateLocustScript(good.replace('"/b"]', '"/b"'))).toBe("the locustfile is not valid Python: line 8: '[' was never closed");
    expect(validateLocustScript(good.replace('"/cart")', '"/cart"'))).toMatch(/not valid Python: line 13: /);
    expect(validateLocustScript('from locust import task\nx = "unterminated\n')).toBe('the locustfile is not valid Python: line 2: unterminated string');
    expect(validateLocustScript('from locust import task\nx = """never closed\n')).toBe('the locustfile is not valid Python: line 2: unterminated triple-quoted string');
    expect(validateLocustScript('from locust import User\nclass U(User):\npass\n')).toBe('the locustfile is not valid Python: line 3: expected an indented block');
    expect(validateLocustScript('from locust import User\nclass U(User):\n    a = 1\n      b = 2\n')).toBe('the locustfile is not valid Python: line 4: unexpected indent');
    expect(validateLocustScript('from locust import User\nclass U(User):\n    def f(self):\n        a = 1\n  b = 2\n')).toBe(
      'the locustfile is not valid Python: line 5: unindent does not match any outer indentation level',
    );
    expect(validateLocustScript('from locust import User\nclass U(User):\n    pass\nelse\n')).toMatch(/line 4: expected ':' after the else statement/);
    expect(validateLocustScript('import requests\nclass U(object):\n    pass\n')).toBe('a locustfile must import locust (from locust import HttpUser, task)');
    expect(validateLocustScript('from locust import task\n\n@task\ndef f(user):\n    pass\n')).toMatch(/must define a User class/);
    expect(checkPythonStructure('x = [1, 2\n')).toBe("line 1: '[' was never closed");
    expect(checkPythonStructure('x = 1)\n')).toBe("line 1: unmatched ')'");
  });
});

describe('the metrics hook', () => {
  // Runs the shipped hook under python3 with stand-ins for locust and gevent: its snapshot must be, byte for byte, what
  // LatencyHistogram encodes for the same latencies (the agent merges the two as one).
  // python3 is on every machine that installs Locust (scripts/engines/locust.sh needs it).
  test('buckets and encoding agree with LatencyHistogram', () => {
    const values = [0, 0.0004, 0.0005, 1, 2.047, 2.048, 2.049, 5.5, 15.123456, 1023.9, 4096.5, 123456.789, 3_700_000];
    const dir = mkdtempSync(join(tmpdir(), 'locust-hook-'));
    try {
      writeFileSync(join(dir, 'loadplane_metrics.py'), locustMetricsHook);
      writeFileSync(
        join(dir, 'locust.py'),
        'class _Hook:\n    def add_listener(self, f):\n        return f\n\nclass events:\n    request = init = quitting = quit = _Hook()\n',
      );
      writeFileSync(join(dir, 'gevent.py'), 'def sleep(s):\n    pass\n\ndef spawn(*a):\n    pass\n');
      const harness = `import loadplane_metrics as m\nfor i, v in enumerate(${JSON.stringify(values)}):\n    m.on_request(response_time=v, exception=None if i % 4 else ValueError(), start_time=1800000000 + i)\nm.flush()\nm.flush()\n`;
      const run = spawnSync('python3', ['-c', harness], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PYTHONDONTWRITEBYTECODE: '1' } });
      expect(run.stderr).toBe('');
      const lines = run.stdout.trim().split('\n');
      // One endpoint line (the requests had no name), then the snapshot; the second flush had nothing to say.
      expect(lines.length).toBe(2);
      const endpoint = JSON.parse(lines[0]!.slice('LOADPLANE_ENDPOINT '.length)) as { name: string; requests: number; errors: number; histogram: unknown; failures: unknown[] };
      expect(endpoint).toMatchObject({ name: '(unnamed)', requests: values.length, errors: 4 });
      expect(endpoint.failures).toEqual([{ kind: 'network', code: 'ValueError', message: 'ValueError', count: 4 }]);
      const snapshot = JSON.parse(lines[1]!.slice('LOADPLANE_METRICS '.length)) as { requests: number; errors: number; startedAt: number; histogram: unknown };
      expect(endpoint.histogram).toEqual(snapshot.histogram);
      const expected = new LatencyHistogram();
      for (const value of values) expected.record(value);
      expect(snapshot.histogram).toEqual(expected.encode());
      expect(snapshot.requests).toBe(values.length);
      expect(snapshot.errors).toBe(4);
      expect(snapshot.startedAt).toBe(1_800_000_000_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('tool: available() uses the injected lookup', async () => {
  const found = createLocustTool({ binary: '/opt/locust', which: async (p) => p, version: '2.47.0' });
  expect(await found.available()).toEqual({ ok: true, version: '2.47.0' });
  expect(await createLocustTool({ which: async () => null }).available()).toEqual({
    ok: false,
    reason: 'locust not found ("locust"): install Locust, put it on PATH or set LOCUST_BIN',
  });
});
