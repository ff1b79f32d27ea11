/**
 * The README's quick start, run as a newcomer runs it: `npm start` on a fresh DATA_DIR, then every shell block of the
 * "Quick start" section after the first (which is `npm ci && npm start` itself), in bash, with curl and sed, in a
 * directory whose `data/` is the service's DATA_DIR. Only the address changes (the test's port for 8080). The first run
 * must end completed with its figures, so the README's first example cannot rot.
 */
import { afterAll, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';

let service: ServiceProcess | null = null;
let home = '';
afterAll(async () => {
  await service?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

/** The fenced `sh` blocks of a README section, in order. */
function shellBlocks(readme: string, heading: string): string[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no section "${heading}"`);
  const next = readme.indexOf('\n## ', start + heading.length + 5);
  const section = readme.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

test('the quick start: sign in, a psk_ token, an http test against /healthz, 5 users for 10 s, followed to done', async () => {
  const blocks = shellBlocks(await readFile(join(repoRoot, 'README.md'), 'utf8'), 'Quick start');
  expect(blocks[0]).toContain('npm start');
  expect(blocks.length).toBeGreaterThanOrEqual(3);

  home = await mkdtemp(join(tmpdir(), 'loadplane-readme-'));
  service = await startServiceProcess({ env: { DATA_DIR: join(home, 'data') }, embedded: true });
  const script = blocks.slice(1).join('\n').replaceAll('http://localhost:8080', service.url);
  const run = spawnSync('bash', ['-c', script], { cwd: home, encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);

  const events = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as { type: string; task?: Record<string, unknown> });
  const done = events.find((event) => event.type === 'done');
  expect(done, run.stdout.slice(-2000)).toBeDefined();
  expect(done!.task).toMatchObject({ status: 'completed', error_rate: 0, pending_reason: null });
  expect(done!.task!.total_requests as number).toBeGreaterThan(10);
  expect(done!.task!.requests_per_sec as number).toBeGreaterThan(0);
  expect(done!.task!.p95 as number).toBeGreaterThan(0);
  // The http tool's progress and its per-step summary reached the live log before the end.
  const logs = events.filter((event) => event.type === 'log').map((event) => (event as unknown as { text: string }).text);
  expect(logs.some((text) => text.includes('health'))).toBe(true);
}, 180_000);
