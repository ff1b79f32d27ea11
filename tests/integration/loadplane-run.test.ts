/**
 * `loadplane run`, the CI gate, as a process of this checkout against a real service with an agent: exit 0 for a
 * passing run and 1 for a failing threshold, with the log on stderr and the figures, endpoints and verdict on stdout;
 * the JUnit report read by a real XML parser; exit 2 for an unknown test, no token, an unknown option or no service;
 * the token from LOADPLANE_TOKEN or --token-file, never the command line; without --wait the run's id and address;
 * --compare against the test's baseline; a dropped log stream followed again without a lost or repeated line;
 * machines by hostname and a configuration by name; and SIGINT or SIGTERM while waiting cancels the run (130, 143).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJunit } from '../helpers/junit-xml.ts';
import { runLoadplane } from '../helpers/loadplane-cli.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { repoRoot } from '../helpers/service-process.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';
import type { TestService } from '../helpers/test-service.ts';

let fixture: ServiceWithAgent;
let ts: TestService;
let token: string;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  fixture = await startServiceWithAgent('cli-run');
  ({ ts, token } = fixture);
  dir = await mkdtemp(join(tmpdir(), 'loadplane-run-'));
  env = { LOADPLANE_URL: ts.url, LOADPLANE_TOKEN: token };
}, 60_000);
afterAll(async () => {
  await fixture?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A `custom` script: a log line, then `count` samples of endpoint `checkout` (5..9 ms), every 4th an error when asked. */
const samples = (count: number, { errors = false, pause = 0 } = {}) =>
  [
    '#!/bin/sh',
    'echo "warming up the checkout"',
    'i=0',
    `while [ $i -lt ${count} ]; do`,
    '  i=$((i + 1))',
    `  if [ ${errors ? 1 : 0} -eq 1 ] && [ $((i % 4)) -eq 0 ]; then outcome=error; else outcome=ok; fi`,
    '  echo "loadplane:sample $((5 + i % 5)) $outcome checkout"',
    '  echo "line $i"',
    ...(pause > 0 ? [`  sleep ${pause}`] : []),
    'done',
    'echo "all done"',
  ].join('\n');

async function createTest(name: string, script: string, thresholds?: unknown): Promise<string> {
  const response = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name, tool: 'custom', script, ...(thresholds === undefined ? {} : { thresholds }) } });
  if (response.status !== 201) throw new Error(`POST /tests: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

interface Task {
  id: string;
  public_id: string;
  test_id: string;
  status: string;
}
const readTask = async (id: string) => (await (await ts.request(`/api/v1/tasks/${id}`, { token })).json()) as Task;
const tasksOf = async (testId: string) => (await (await ts.request(`/api/v1/tasks?test_id=${testId}`, { token })).json()) as Task[];

const machineOnline = () =>
  waitFor(
    async () => ((await (await ts.request('/api/v1/machines', { token })).json()) as { status: string }[]).every((m) => m.status === 'online'),
    60_000,
    'the machine to be online again',
  );

describe('loadplane run --wait', () => {
  test('a passing run: exit 0, the log on stderr, figures, endpoints and verdict on stdout, a JUnit report', async () => {
    await createTest('checkout passes', samples(20), [
      { metric: 'p95', op: '<', value: 60_000 },
      { metric: 'error_rate', endpoint: 'checkout', op: '<=', value: 0.01 },
    ]);
    const junit = join(dir, 'passing.xml');
    const result = await runLoadplane(['run', 'checkout passes', '--wait', '--junit', junit], env);
    expect(result.code, result.stderr).toBe(0);
    // The log, line by line, on stderr only.
    expect(result.stderr).toContain('warming up the checkout\n');
    expect(result.stderr).toContain('line 20\n');
    expect(result.stderr).toContain('all done\n');
    expect(result.stdout).not.toContain('warming up');
    // The result on stdout.
    expect(result.stdout).toContain('of test "checkout passes": completed');
    expect(result.stdout).toContain('requests    20 (');
    expect(result.stdout).toMatch(/checkout +20 +0 +0\.00 %/);
    expect(result.stdout).toMatch(/ok +p95 < 60000 +actual [\d.]+ +limit < 60000/);
    expect(result.stdout).toMatch(/ok +error_rate of checkout <= 0\.01 +actual 0 +limit <= 0\.01/);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('verdict: passed');
    const report = parseJunit(await readFile(junit, 'utf8'));
    expect(report.suite).toMatchObject({ name: 'checkout passes', tests: '2', failures: '0', errors: '0' });
    expect(report.cases.map((c) => [c.name, c.failure])).toEqual([
      ['p95 < 60000', null],
      ['error_rate of checkout <= 0.01', null],
    ]);
    expect(report.properties.status).toBe('completed');
  }, 120_000);

  test('a failing threshold, with the token from a file and none in the environment: exit 1, FAIL and the JUnit failure', async () => {
    const testId = await createTest('checkout fails', samples(12, { errors: true }), [
      { metric: 'p95', op: '<', value: 60_000 },
      { metric: 'error_rate', op: '<=', value: 0.01 },
    ]);
    const tokenFile = join(dir, 'token');
    await writeFile(tokenFile, `${token}\n`);
    await chmod(tokenFile, 0o600);
    const junit = join(dir, 'failing.xml');
    // By id this time; nothing secret on the command line, no LOADPLANE_TOKEN.
    const result = await runLoadplane(['run', testId, '--wait', '--token-file', tokenFile, '--junit', junit], { LOADPLANE_URL: ts.url });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).not.toContain('warning');
    expect(result.stderr).toContain('line 12\n');
    expect(result.stdout).toContain(': failed');
    expect(result.stdout).toContain('error       thresholds failed: error_rate <= 0.01 (actual 0.25)');
    expect(result.stdout).toMatch(/FAIL +error_rate <= 0\.01 +actual 0\.25 +limit <= 0\.01/);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('verdict: failed');
    const report = parseJunit(await readFile(junit, 'utf8'));
    expect(report.suite).toMatchObject({ name: 'checkout fails', tests: '2', failures: '1' });
    expect(report.cases.find((c) => c.failure)).toMatchObject({ name: 'error_rate <= 0.01', failure: { message: 'actual 0.25, limit <= 0.01', type: 'threshold' } });
  }, 120_000);

  test('a run that fails without thresholds: exit 1 and one failed testcase for the run', async () => {
    await createTest('script breaks', '#!/bin/sh\necho "about to break"\nexit 3\n');
    const junit = join(dir, 'broken.xml');
    const result = await runLoadplane(['run', 'script breaks', '--wait', '--junit', junit], env);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('about to break');
    expect(result.stdout).toContain('verdict: none (the run ended failed before its thresholds were checked)');
    const report = parseJunit(await readFile(junit, 'utf8'));
    expect(report.suite).toMatchObject({ tests: '1', failures: '1' });
    expect(report.cases[0]).toMatchObject({ name: 'run completed', failure: { type: 'run failed' } });
  }, 120_000);
});

describe('refusals: exit 2 with the reason', () => {
  test('an unknown test', async () => {
    const result = await runLoadplane(['run', 'no such test', '--wait'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no test named "no such test"');
    expect(result.stdout).toBe('');
  });

  test('no token, an unknown option, no test given, --junit without --wait', async () => {
    const noToken = await runLoadplane(['run', 'checkout passes', '--wait'], { LOADPLANE_URL: ts.url });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('no token: set LOADPLANE_TOKEN, or pass --token-file FILE');
    const unknown = await runLoadplane(['run', 'checkout passes', '--wiat'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--wiat'");
    expect((await runLoadplane(['run'], env)).code).toBe(2);
    const junitAlone = await runLoadplane(['run', 'checkout passes', '--junit', 'x.xml'], env);
    expect(junitAlone.code).toBe(2);
    expect(junitAlone.stderr).toContain('--junit needs --wait');
  });

  test('a token the service refuses, and no service at the address', async () => {
    const refused = await runLoadplane(['run', 'checkout passes', '--wait'], { ...env, LOADPLANE_TOKEN: 'psk_not_a_real_token' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the service refused the token (401');
    const closed = await runLoadplane(['run', 'checkout passes', '--wait'], { ...env, LOADPLANE_URL: 'http://127.0.0.1:9' });
    expect(closed.code).toBe(2);
    expect(closed.stderr).toContain('no answer from http://127.0.0.1:9/api/v1');
  });

  test('--help for the command, and the program lists it', async () => {
    const help = await runLoadplane(['run', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: loadplane run <test id or name>');
    expect(help.stdout).toContain('cancels the run');
    const top = await runLoadplane(['--help'], {});
    expect(top.stdout).toMatch(/\n {2}run +starts a run of a test/);
  });
});

describe('without --wait, --compare, a dropped stream, --machines and --config, signals', () => {
  test('without --wait: the run id, public id and address at once, exit 0; the run goes on', async () => {
    const testId = await createTest('started only', samples(3));
    const result = await runLoadplane(['run', 'started only'], env);
    expect(result.code, result.stderr).toBe(0);
    const [task] = await tasksOf(testId);
    expect(result.stdout).toContain(`run ${task!.id} (public id ${task!.public_id}) of test "started only" started: pending`);
    expect(result.stdout).toContain(`${ts.url}/runs/${task!.id}\n`);
    await waitFor(async () => (await readTask(task!.id)).status === 'completed', 60_000, 'the run to complete');
  }, 90_000);

  test('--compare baseline: says there is none, then prints the changes against the one set', async () => {
    const testId = await createTest('compared', samples(8));
    const first = await runLoadplane(['run', 'compared', '--wait', '--compare', 'baseline'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/compare: no baseline to compare with: .*has no baseline/);
    const [baseRun] = await tasksOf(testId);
    const set = await ts.request(`/api/v1/tests/${testId}/baseline`, { method: 'PUT', token, json: { task_id: baseRun!.id } });
    expect(set.status).toBe(200);
    const second = await runLoadplane(['run', 'compared', '--wait', '--compare', 'baseline'], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`compared with the baseline, run ${baseRun!.public_id}`);
    expect(second.stdout).toMatch(/p95 ms +[\d.]+ +[\d.]+ +(-|[+-]?[\d.]+ %)/);
    expect(second.stdout).toMatch(/endpoints \(change against the base run\):\n.*\n +checkout /);
  }, 120_000);

  test('a dropped log stream is followed again from the last line: every line once', async () => {
    await createTest('slow lines', samples(8, { pause: 0.4 }));
    const proxy = await startTcpProxy(new URL(ts.url).port ? Number(new URL(ts.url).port) : 80);
    try {
      const child = spawn(process.execPath, ['adapters/runtime/bun/loadplane.ts', 'run', 'slow lines', '--wait'], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOADPLANE_URL: proxy.url, LOADPLANE_TOKEN: token },
      });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdout.on('data', (chunk) => (stdout += chunk));
      const exited = new Promise<number | null>((done) => child.once('close', done));
      await waitFor(() => stderr.includes('line 2\n'), 60_000, () => `line 2 on stderr:\n${stderr}`);
      // As a balancer does when a replica goes away: every open connection cut.
      proxy.switchTo(Number(new URL(ts.url).port));
      expect(await exited, stderr).toBe(0);
      expect(stderr).toContain('following again');
      for (let i = 1; i <= 8; i++) expect(stderr.split('\n').filter((line) => line === `line ${i}`)).toHaveLength(1);
      expect(stderr.split('\n').filter((line) => line === 'warming up the checkout')).toHaveLength(1);
      expect(stdout).toContain('verdict: none (the test has no thresholds): the run completed');
    } finally {
      await proxy.close();
    }
  }, 120_000);

  test('--machines by hostname and --config by name reach the run; an unknown machine is refused', async () => {
    const testId = await createTest('placed', samples(3));
    const saved = await ts.request('/api/v1/configs', { method: 'POST', token, json: { name: 'one user', vus: 1, duration: '1s' } });
    expect(saved.status).toBe(201);
    const configId = ((await saved.json()) as { id: string }).id;
    const machines = (await (await ts.request('/api/v1/machines', { token })).json()) as { id: string; hostname: string }[];
    const result = await runLoadplane(['run', 'placed', '--wait', '--machines', 'cli-run-agent', '--config', 'one user'], env);
    expect(result.code, result.stderr).toBe(0);
    const [task] = (await tasksOf(testId)) as (Task & { config_id: string; machine_ids: string[] })[];
    expect(task!.config_id).toBe(configId);
    expect(task!.machine_ids).toEqual([machines.find((m) => m.hostname === 'cli-run-agent')!.id]);
    const unknown = await runLoadplane(['run', 'placed', '--machines', 'gen-404'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no machine with the id or hostname "gen-404" (machines: "cli-run-agent")');
  }, 90_000);

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    test(`${signal} while waiting (Ctrl-C, a cancelled CI job) cancels the run and exits ${code}`, async () => {
      await machineOnline();
      const testId = await createTest(`long wait ${signal}`, '#!/bin/sh\necho "started the long one"\nsleep 120\n');
      const child = spawn(process.execPath, ['adapters/runtime/bun/loadplane.ts', 'run', `long wait ${signal}`, '--wait'], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const exited = new Promise<number | null>((done) => child.once('close', done));
      await waitFor(() => stderr.includes('started the long one'), 60_000, () => `the run's first line:\n${stderr}`);
      child.kill(signal);
      expect(await exited, stderr).toBe(code);
      expect(stderr).toContain(`${signal}: cancelling the run`);
      expect(stderr).toContain('the run was cancelled');
      const [task] = await tasksOf(testId);
      expect(task!.status).toBe('cancelled');
    }, 120_000);
  }
});
