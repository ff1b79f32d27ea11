/**
 * The CI jobs of docs/ci.md, run as written against a real service with an agent: the GitHub Actions workflow's `run`
 * steps in bash `-eo pipefail` as a runner runs them (job `env` from the repository's variables and secrets, `if:
 * always()` steps after a failure, `$GITHUB_STEP_SUMMARY`), and the GitLab job's `script` lines in one shell with its
 * `variables` and the project's CI/CD variables. The job succeeds when the test's thresholds hold and fails when one
 * fails, with the JUnit report where the job keeps it. `LOADPLANE_BINARY_URL` serves a stand-in for the single
 * executable that runs this checkout's `loadplane` (tests/integration/loadplane-binary.test.ts builds the real one).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parseJunit } from '../helpers/junit-xml.ts';
import { repoRoot } from '../helpers/service-process.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import { readExamples } from './markdown-examples.ts';

const doc = 'docs/ci.md';
const yamlOf = (section: string) => {
  const example = readExamples(doc).examples.find((candidate) => candidate.section === section && candidate.lang === 'yaml');
  if (!example) throw new Error(`no yaml block in ${doc}, section "${section}"`);
  return parseYaml(example.code) as Record<string, unknown>;
};

let fixture: ServiceWithAgent;
let binaryServer: ReturnType<typeof Bun.serve>;
let testId: string;
const workDirs: string[] = [];

/** The single executable's stand-in: this checkout's program, run by this Bun. */
const standIn = `#!/bin/sh\nexec '${process.execPath}' '${join(repoRoot, 'adapters/runtime/bun/loadplane.ts')}' "$@"\n`;

beforeAll(async () => {
  fixture = await startServiceWithAgent('ci-docs');
  binaryServer = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => (new URL(request.url).pathname === '/loadplane-linux-x64' ? new Response(standIn) : new Response('no', { status: 404 })) });
  const script = ['#!/bin/sh', 'echo "checkout flow starts"', 'for i in 1 2 3 4 5 6; do echo "loadplane:sample $((5 + i)) ok checkout"; done', 'echo "checkout flow ends"'].join('\n');
  const created = await fixture.ts.request('/api/v1/tests', { method: 'POST', token: fixture.token, json: { name: 'checkout flow', tool: 'custom', script } });
  expect(created.status).toBe(201);
  testId = ((await created.json()) as { id: string }).id;
}, 60_000);

afterAll(async () => {
  await binaryServer?.stop(true);
  await fixture?.stop();
  for (const dir of workDirs) await rm(dir, { recursive: true, force: true });
});

async function setThresholds(thresholds: unknown[]) {
  const response = await fixture.ts.request(`/api/v1/tests/${testId}`, { method: 'PATCH', token: fixture.token, json: { thresholds } });
  expect(response.status).toBe(200);
}
const passing = [
  { metric: 'p95', op: '<', value: 60_000 },
  { metric: 'error_rate', endpoint: 'checkout', op: '<=', value: 0.01 },
];
const failing = [
  { metric: 'p95', op: '<', value: 60_000 },
  { metric: 'p95', endpoint: 'checkout', op: '<', value: 1 },
];

async function workDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ci-job-'));
  workDirs.push(dir);
  return dir;
}

/** A clean environment, as a fresh runner has: nothing of this test process leaks in. */
const runnerEnv = (dir: string) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, CI: 'true' });

/**
 * A shell of the job, not spawnSync: the service and the binary's server live in this process and must answer while
 * it runs.
 */
async function bash(args: string[], cwd: string, env: Record<string, string>) {
  const child = Bun.spawn(['bash', ...args], { cwd, env, stdout: 'pipe', stderr: 'pipe', timeout: 120_000 });
  const [stdout, stderr, status] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { status, stdout, stderr };
}

interface StepResult {
  name: string;
  exit: number | null;
  stdout: string;
  stderr: string;
}

/** `${{ vars.X }}` and `${{ secrets.X }}` in the job's env, from the repository's settings; any other expression is refused. */
function githubExpressions(value: string, settings: { vars: Record<string, string>; secrets: Record<string, string> }): string {
  return value.replace(/\$\{\{\s*(vars|secrets)\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_, kind: 'vars' | 'secrets', name: string) => {
    const found = settings[kind][name];
    if (found === undefined) throw new Error(`the workflow reads ${kind}.${name}, which the docs do not tell the reader to set`);
    return found;
  });
}

/** Runs the workflow's job as a GitHub runner would: `run` steps in bash, `uses` steps noted, `if: always()` after a failure. */
async function runGithubJob(settings: { vars: Record<string, string>; secrets: Record<string, string> }) {
  const workflow = yamlOf('GitHub Actions') as { jobs: Record<string, { env?: Record<string, string>; steps: { name?: string; run?: string; uses?: string; if?: string }[] }> };
  const [job] = Object.values(workflow.jobs);
  const dir = await workDir();
  const summary = join(dir, 'step-summary.md');
  const env: Record<string, string> = { ...runnerEnv(dir), GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
  for (const [name, value] of Object.entries(job!.env ?? {})) env[name] = githubExpressions(String(value), settings);
  const steps: StepResult[] = [];
  const actions: string[] = [];
  let failed = false;
  for (const step of job!.steps) {
    if (step.if !== undefined && step.if !== 'always()') throw new Error(`no emulation of if: ${step.if}`);
    if (failed && step.if !== 'always()') continue;
    if (step.uses) {
      actions.push(step.uses);
      continue;
    }
    // Expressions in a script are an injection risk; the docs keep them in env.
    expect(step.run!, step.name).not.toContain('${{');
    const run = await bash(['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], dir, env);
    steps.push({ name: step.name ?? '', exit: run.status, stdout: run.stdout, stderr: run.stderr });
    if (run.status !== 0) failed = true;
  }
  return { dir, steps, actions, failed, summary: existsSync(summary) ? readFileSync(summary, 'utf8') : '' };
}

/** Runs the GitLab job's script lines in one shell that stops at the first failing line, as the runner does. */
async function runGitlabJob(projectVariables: Record<string, string>, serviceUrl: string) {
  const config = yamlOf('GitLab CI') as Record<string, { variables?: Record<string, string>; script: string[]; artifacts?: { when?: string; reports?: { junit?: string } } }>;
  const job = config['load-test']!;
  const dir = await workDir();
  const env: Record<string, string> = { ...runnerEnv(dir), GITLAB_CI: 'true', ...projectVariables };
  // The made-up address of the document is the test service's, as in every other document's examples.
  for (const [name, value] of Object.entries(job.variables ?? {})) env[name] = String(value).replaceAll('https://loadplane.example.com', serviceUrl);
  const run = await bash(['-c', ['set -eo pipefail', ...job.script].join('\n')], dir, env);
  return { dir, job, exit: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe(`${doc}: the jobs as written`, () => {
  test('GitHub Actions: passes with the thresholds held; the report on the summary page and the JUnit file kept', async () => {
    await setThresholds(passing);
    const settings = { vars: { LOADPLANE_URL: fixture.ts.url, LOADPLANE_BINARY_URL: `${binaryServer.url}loadplane-linux-x64` }, secrets: { LOADPLANE_TOKEN: fixture.token } };
    const job = await runGithubJob(settings);
    expect(job.failed, JSON.stringify(job.steps, null, 1)).toBe(false);
    expect(job.steps.map((step) => step.exit)).toEqual([0, 0, 0]);
    expect(job.actions).toEqual(['actions/upload-artifact@v4']);
    // The log in the job's output (stderr), the result through tee.
    expect(job.steps[1]!.stderr).toContain('checkout flow starts');
    expect(job.steps[1]!.stdout).toContain('verdict: passed');
    expect(job.summary).toContain('verdict: passed');
    const report = parseJunit(readFileSync(join(job.dir, 'loadplane-junit.xml'), 'utf8'));
    expect(report.suite).toMatchObject({ name: 'checkout flow', tests: '2', failures: '0' });
  }, 180_000);

  test('GitHub Actions: a failing threshold fails the job at the load test; the summary and the report still come', async () => {
    await setThresholds(failing);
    const settings = { vars: { LOADPLANE_URL: fixture.ts.url, LOADPLANE_BINARY_URL: `${binaryServer.url}loadplane-linux-x64` }, secrets: { LOADPLANE_TOKEN: fixture.token } };
    const job = await runGithubJob(settings);
    expect(job.failed).toBe(true);
    expect(job.steps.map((step) => step.exit)).toEqual([0, 1, 0]);
    expect(job.actions).toEqual(['actions/upload-artifact@v4']);
    expect(job.summary).toContain('verdict: failed');
    expect(job.summary).toMatch(/FAIL +p95 of checkout < 1 +actual [\d.]+ +limit < 1/);
    const report = parseJunit(readFileSync(join(job.dir, 'loadplane-junit.xml'), 'utf8'));
    expect(report.suite).toMatchObject({ tests: '2', failures: '1' });
    expect(report.cases.find((c) => c.failure)!.name).toBe('p95 of checkout < 1');
  }, 180_000);

  test('GitLab CI: passes, then fails with a failing threshold; the JUnit report where artifacts:reports:junit says', async () => {
    const variables = { LOADPLANE_TOKEN: fixture.token, LOADPLANE_BINARY_URL: `${binaryServer.url}loadplane-linux-x64` };
    await setThresholds(passing);
    const passed = await runGitlabJob(variables, fixture.ts.url);
    expect(passed.exit, passed.stderr).toBe(0);
    expect(passed.job.artifacts?.when).toBe('always');
    expect(passed.stdout).toContain('verdict: passed');
    expect(passed.stderr).toContain('checkout flow ends');
    const report = passed.job.artifacts!.reports!.junit!;
    expect(parseJunit(readFileSync(join(passed.dir, report), 'utf8')).suite).toMatchObject({ tests: '2', failures: '0' });

    await setThresholds(failing);
    const failed = await runGitlabJob(variables, fixture.ts.url);
    expect(failed.exit, failed.stderr).toBe(1);
    expect(failed.stdout).toContain('verdict: failed');
    expect(parseJunit(readFileSync(join(failed.dir, report), 'utf8')).suite).toMatchObject({ tests: '2', failures: '1' });
  }, 240_000);
});
