import { describe, expect, test } from 'bun:test';
import { type Assignment, LatencyHistogram } from 'loadplane/plugin';
import { k6Command } from './k6-command.ts';
import { k6Outcome } from './k6-exit-codes.ts';
import { formatK6LogLine, parseK6LogLine } from './k6-log-line.ts';
import { createK6Parser } from './k6-output-parser.ts';
import { k6SnapshotPrefix } from './k6-snapshot.ts';
import { createK6Tool, validateK6Script } from './k6-tool.ts';
import snapshotLines from './xk6-output/testdata/snapshot-lines.txt' with { type: 'text' };

const assignment = (overrides: Partial<Assignment> = {}): Assignment => ({
  assignmentId: 'as-1',
  taskId: 'task-1',
  testId: 'test-1',
  tool: 'k6',
  script: 'export default function () {}',
  config: null,
  machineIndex: 0,
  machineCount: 1,
  ...overrides,
});

const base = ['/opt/k6', 'run', '--no-usage-report', '--no-color', '--out', 'json=samples.jsonl'];

describe('command', () => {
  test('no config: the script\'s own options rule', () => {
    expect(k6Command(assignment(), '/opt/k6')).toEqual({
      argv: [...base, 'script.js'],
      env: { LOADPLANE_TASK_ID: 'task-1', LOADPLANE_MACHINE_INDEX: '0', LOADPLANE_MACHINE_COUNT: '1' },
      files: { 'script.js': 'export default function () {}' },
      sampleFile: 'samples.jsonl',
    });
  });

  test('vus and duration, split across machines', () => {
    expect(k6Command(assignment({ config: { vus: 10, duration: '90s' }, machineIndex: 2, machineCount: 3 }), '/opt/k6').argv).toEqual([
      ...base,
      '--vus',
      '3',
      '--duration',
      '1m30s',
      'script.js',
    ]);
  });

  test('stages ramp from 0, each target split', () => {
    const config = { stages: [{ duration: '30s', target: 10 }, { duration: '1h30m', target: 5 }, { duration: '500ms', target: 0 }] };
    expect(k6Command(assignment({ config, machineIndex: 0, machineCount: 2 }), 'k6').argv.slice(6)).toEqual([
      '--vus',
      '0',
      '--stage',
      '30s:5',
      '--stage',
      '1h30m:3',
      '--stage',
      '500ms:0',
      'script.js',
    ]);
  });

  test('a machine whose share is 0 VUs only runs `k6 version`', () => {
    const command = k6Command(assignment({ config: { vus: 2, duration: '10s' }, machineIndex: 2, machineCount: 3 }), 'k6');
    expect(command.argv).toEqual(['k6', 'version']);
    expect(command.sampleFile).toBeUndefined();
  });

  test('with the loadplane output: --out loadplane and no sample file', () => {
    const command = k6Command(assignment({ config: { vus: 4, duration: '2s' } }), '/opt/k6', { snapshots: true });
    expect(command.argv).toEqual(['/opt/k6', 'run', '--no-usage-report', '--no-color', '--out', 'loadplane', '--vus', '4', '--duration', '2s', 'script.js']);
    expect(command.sampleFile).toBeUndefined();
    expect(createK6Tool({ binary: '/opt/k6', snapshots: true }).command(assignment()).argv).toContain('loadplane');
    expect(createK6Tool({ binary: '/opt/k6' }).command(assignment()).argv).toContain('json=samples.jsonl');
  });

  test('deterministic', () => {
    const a = assignment({ config: { vus: 5, duration: '3s' } });
    expect(k6Command(a, 'k6')).toEqual(k6Command(a, 'k6'));
  });
});

const point = (metric: string, value: number, time = '2026-11-22T03:28:38.017460893Z') =>
  JSON.stringify({ metric, type: 'Point', data: { time, value, tags: { method: 'GET', status: value ? '500' : '200' } } });

describe('parser', () => {
  test('Points of http_req_duration, http_reqs and http_req_failed; everything else ignored', () => {
    const parser = createK6Parser(() => Date.parse('2026-11-22T03:28:40Z'));
    const lines = [
      '{"type":"Metric","data":{"name":"http_reqs","type":"counter","contains":"default","thresholds":[],"submetrics":null},"metric":"http_reqs"}',
      // A real k6 v1.8.1 line, verbatim.
      '{"metric":"http_req_duration","type":"Point","data":{"time":"2026-11-22T03:28:38.017460893Z","value":3.549303,"tags":{"expected_response":"true","group":"","method":"GET","name":"http://127.0.0.1:18777/","proto":"HTTP/1.0","scenario":"default","status":"200","url":"http://127.0.0.1:18777/"}}}',
      '{"metric":"http_reqs","type":"Point","data":{"time":"2026-11-22T03:28:38.017460893Z","value":1,"tags":{"expected_response":"true","group":"","method":"GET","name":"http://127.0.0.1:18777/","proto":"HTTP/1.0","scenario":"default","status":"200","url":"http://127.0.0.1:18777/"}}}',
      '{"metric":"http_req_failed","type":"Point","data":{"time":"2026-11-22T03:28:38.017460893Z","value":0,"tags":{"expected_response":"true","group":"","method":"GET","name":"http://127.0.0.1:18777/","proto":"HTTP/1.0","scenario":"default","status":"200","url":"http://127.0.0.1:18777/"}}}',
      point('http_req_waiting', 3.2),
      point('http_req_duration', 120.5, '2026-11-22T03:28:39.5Z'),
      point('http_reqs', 1, '2026-11-22T03:28:39.5Z'),
      point('http_req_failed', 1, '2026-11-22T03:28:39.5Z'),
      // Another field order still parses (slow path).
      JSON.stringify({ type: 'Point', metric: 'http_reqs', data: { value: 1, time: '2026-11-22T03:28:39.6Z', tags: null } }),
      '{"metric":"http_req_duration","type":"Point","data":{"time":"2026-11-22T03:28:39.6Z","value":7,"ta', // torn line
      'not json',
      '',
    ];
    for (const line of lines) parser.onSample!(line);
    const interval = parser.takeInterval(Date.parse('2026-11-22T03:28:40Z'))!;
    expect(interval.requests).toBe(3);
    expect(interval.errors).toBe(1);
    expect(interval.startedAt).toBe(Date.parse('2026-11-22T03:28:38.017Z'));
    expect(interval.endedAt).toBe(Date.parse('2026-11-22T03:28:39.6Z'));
    const histogram = LatencyHistogram.decode(interval.histogram);
    expect(histogram.count).toBe(3); // the torn line's fast prefix still carries a whole value
    expect(histogram.max).toBeCloseTo(120.5, 1);
    const summary = parser.summary();
    expect(summary.requests).toBe(3);
    expect(summary.errors).toBe(1);
  });

  test('snapshot lines of the Go extension (its golden file): counts and the very histogram TypeScript makes', () => {
    const parser = createK6Parser(() => 1_699_999_999_000);
    const lines = snapshotLines.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2); // one interval in parts, each a whole snapshot
    for (const line of lines) expect(parser.onOutput('out', line)).toBeNull();
    // What the Go test wrote: 100 requests of (1 + 1.5 i) ms at 1700000000000 + i ms, every 7th failed.
    const expected = new LatencyHistogram();
    for (let i = 0; i < 100; i++) expected.record(1 + 1.5 * i);
    const interval = parser.takeInterval(1_700_000_001_000)!;
    expect(interval.requests).toBe(100);
    expect(interval.errors).toBe(15);
    expect(interval.histogram).toEqual(expected.encode());
    expect([interval.startedAt, interval.endedAt]).toEqual([1_700_000_000_000, 1_700_000_000_099]);
    expect(parser.takeInterval(1_700_000_002_000)).toBeNull();
    // The next interval adds up in the summary, which starts at the first sample (not the parser's creation).
    parser.onOutput('out', lines[0]!);
    expect(parser.takeInterval(1_700_000_003_000)!.requests).toBe(100);
    const summary = parser.summary();
    expect(summary.requests).toBe(200);
    expect(summary.errors).toBe(30);
    expect(LatencyHistogram.decode(summary.histogram).count).toBe(100 + JSON.parse(lines[0]!.slice(k6SnapshotPrefix.length)).histogram.count);
    expect(summary.startedAt).toBe(1_700_000_000_000);
  });

  test('a snapshot line that does not read is logged, not counted; the prefix on stderr is a log line', () => {
    const parser = createK6Parser();
    expect(() => parser.onOutput('out', `${k6SnapshotPrefix}{"histogram":{"v":1,"buckets":"AQ=="`)).toThrow();
    expect(() => parser.onOutput('out', `${k6SnapshotPrefix}{"histogram":{"v":1,"buckets":"","count":0,"min":0,"max":0,"sum":0},"requests":-1,"errors":0,"startedAt":1,"endedAt":1}`)).toThrow();
    expect(parser.onOutput('err', `${k6SnapshotPrefix}{}`)).toBe(`${k6SnapshotPrefix}{}`);
    expect(parser.takeInterval(Date.now())).toBeNull();
  });

  test('no output: an empty summary', () => {
    const summary = createK6Parser().summary();
    expect(summary.requests).toBe(0);
    expect(summary.errors).toBe(0);
    expect(LatencyHistogram.decode(summary.histogram).count).toBe(0);
  });

  test('log lines are tidied; summary lines pass as they are', () => {
    const parser = createK6Parser();
    expect(parser.onOutput('err', 'time="2026-11-22T03:28:38Z" level=info msg="hello from vu" source=console')).toBe('info: hello from vu');
    expect(parser.onOutput('err', 'time="2026-11-22T03:28:38Z" level=warning msg="say \\"hi\\"\\nnext" executor=constant-vus')).toBe(
      'warning: say "hi"\nnext executor=constant-vus',
    );
    expect(parser.onOutput('out', '    http_reqs......................: 1452   1448.587951/s')).toBe('    http_reqs......................: 1452   1448.587951/s');
    expect(parser.onOutput('out', '')).toBe('');
    expect(formatK6LogLine(parseK6LogLine('time="x" level=error msg=plain')!)).toBe('error: plain');
  });

  test('outcome reads k6\'s exit codes and diagnostics', () => {
    const parser = createK6Parser();
    expect(parser.outcome(0, null)).toEqual({ status: 'completed' });
    expect(parser.outcome(99, null)).toEqual({ status: 'failed', reason: 'thresholds crossed' });
    parser.onOutput('err', 'time="2026-11-22T03:28:38Z" level=error msg="thresholds on metrics \'http_req_duration, http_req_failed\' have been crossed"');
    expect(parser.outcome(99, null)).toEqual({ status: 'failed', reason: 'thresholds crossed on http_req_duration, http_req_failed' });
    parser.onOutput('err', 'time="2026-11-22T03:28:38Z" level=error msg="ReferenceError: nope is not defined\\n\\tat default (file:///w/script.js:3:2(3))" source=stacktrace');
    expect(parser.outcome(107, null)).toEqual({
      status: 'failed',
      reason: 'script error: ReferenceError: nope is not defined (exit code 107)',
    });
    expect(parser.outcome(105, null)).toEqual({ status: 'failed', reason: 'k6 was aborted by a signal (exit code 105)' });
    expect(parser.outcome(1, null)).toEqual({ status: 'failed', reason: 'exit code 1' });
    expect(parser.outcome(null, 'SIGKILL')).toEqual({ status: 'failed', reason: 'killed by SIGKILL' });
    expect(k6Outcome(104, null)).toEqual({ status: 'failed', reason: 'invalid k6 configuration (exit code 104)' });
  });
});

describe('tool', () => {
  test('validateScript: lenient, but catches empty and obviously wrong scripts', () => {
    expect(validateK6Script("import http from 'k6/http';\nexport default function () { http.get('http://x'); }")).toBeNull();
    expect(validateK6Script('export const options = { scenarios: { a: { executor: "shared-iterations", exec: "a" } } };\nexport function a() {}')).toBeNull();
    expect(validateK6Script('export default async function () {}')).toBeNull();
    expect(validateK6Script('')).toBe('script must not be empty');
    expect(validateK6Script('   ')).toBe('script must not be empty');
    expect(validateK6Script('echo hello')).toMatch(/must export a default function/);
    expect(validateK6Script('function main() {}')).toMatch(/must export/);
  });

  test('available() uses the injected lookup', async () => {
    const asked: string[] = [];
    const found = createK6Tool({ binary: '/opt/k6', which: async (p) => (asked.push(p), p) });
    expect(await found.available()).toEqual({ ok: true });
    expect(asked).toEqual(['/opt/k6']);
    const missing = await createK6Tool({ which: async () => null }).available();
    expect(missing).toEqual({ ok: false, reason: 'k6 not found ("k6"): install k6, put it on PATH or set K6_BIN' });
    expect(createK6Tool({ binary: '/opt/k6' }).command(assignment()).argv[0]).toBe('/opt/k6');
  });
});
