/**
 * A plugin shipped as a stranger would: the kit packed (`npm pack`) and installed from its tarball, offline, into a
 * copy of the example plugin outside this repository, whose own contract suite passes there with `bun test`; the
 * plugin packed in turn and installed with `loadplane plugin install` into a fresh plugins directory on the server
 * and on an agent process, which load it by package name from there (no LOADPLANE_PLUGINS, no --plugins), configured
 * by a LOADPLANE_PLUGIN_LOADPLANE_PLUGIN_HEY_* variable, and run a hey test end to end. Beside it, the run-journal
 * example, a plugin that is not a tool, goes the same way: its own table from its plain-SQL migration, the run's
 * run.finished read from the outbox under its own cursor, and its REST endpoints under the service's /api/v1.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type SpawnSyncOptions, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { heyEngine } from 'loadplane-plugin-hey';
import { locateEngineOnHost, requireOrSkip } from 'loadplane/plugin/testing';
import { runToEnd, startDelayTarget } from '../helpers/engine-runs.ts';
import { runLoadplane } from '../helpers/loadplane-cli.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { type ServiceWithAgentProcess, startServiceWithAgentProcess } from '../helpers/service-with-agent.ts';
import { repoRoot } from '../helpers/service-process.ts';

const hey = await locateEngineOnHost(heyEngine, { env: process.env });
const work = mkdtempSync(join(tmpdir(), 'loadplane-stranger-'));
const pluginRepo = join(work, 'loadplane-plugin-hey');
const journalRepo = join(work, 'loadplane-plugin-run-journal');
// Nothing from the registry: the kit and the plugin come from their tarballs (the network may not reach it).
const offline = { npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

/** A command to its end: its stdout and stderr together, or an error with them when it failed. */
function run(program: string, args: string[], options: SpawnSyncOptions = {}): { stdout: string; output: string } {
  const result = spawnSync(program, args, { encoding: 'utf8', ...options, env: { ...process.env, ...offline, ...options.env } });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) throw new Error(`${program} ${args.join(' ')} exited ${result.status} in ${options.cwd ?? repoRoot}:\n${output}`);
  return { stdout: String(result.stdout ?? ''), output };
}

/** `npm pack` of a folder into `work`; the tarball's path (the last line of its stdout; notices go to stderr). */
function pack(folder: string, extra: string[] = []): string {
  const { stdout } = run('npm', ['pack', '--pack-destination', work, ...extra], { cwd: folder });
  return join(work, stdout.trim().split('\n').at(-1)!.trim());
}

let kitTarball = '';
let fixture: ServiceWithAgentProcess | null = null;
let target: ReturnType<typeof startDelayTarget> | null = null;

beforeAll(() => {
  // The kit as it would be published: built now, packed with what package.json's `files` keep.
  run(process.execPath, ['packages/plugin-kit/build.ts'], { cwd: repoRoot });
  kitTarball = pack(join(repoRoot, 'packages/plugin-kit'), ['--ignore-scripts']);
  // The strangers' repositories: the examples' files only (no node_modules, no link into this checkout).
  for (const repo of [pluginRepo, journalRepo]) {
    cpSync(join(repoRoot, 'examples', basename(repo)), repo, { recursive: true, filter: (path) => !path.includes('node_modules') });
    // --no-save: package.json keeps its ranges (npm would write the tarball's path into the peer dependency as well).
    run('npm', ['install', '--no-save', kitTarball], { cwd: repo });
  }
}, 120_000);

afterAll(async () => {
  await fixture?.stop();
  target?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('a plugin built outside the repository with the packed kit', () => {
  test('the kit tarball holds its built JavaScript, declarations and README, nothing of the repository', () => {
    const files = run('tar', ['tzf', kitTarball]).stdout.trim().split('\n');
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/dist/testing.js');
    expect(files).toContain('package/dist/index.d.ts');
    expect(files).toContain('package/README.md');
    expect(files.filter((file) => !file.startsWith('package/dist/') && !['package/package.json', 'package/README.md'].includes(file))).toEqual([]);
    expect(files.some((file) => /\.ts$/.test(file) && !file.endsWith('.d.ts'))).toBe(false);
  });

  test("the plugin's own contract suite passes there with bun test, importing only the installed kit", () => {
    const { stdout: resolved } = run(process.execPath, ['-e', "console.log(import.meta.resolve('@loadplane/plugin-kit/testing'))"], { cwd: pluginRepo });
    expect(resolved).toContain(join(pluginRepo, 'node_modules/@loadplane/plugin-kit/dist/testing.js'));
    const { output } = run(process.execPath, ['test'], {
      cwd: pluginRepo,
      // Only what a stranger's shell has: not this repository's variables (CI keeps a missing hey a failure there too).
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...(process.env.CI ? { CI: process.env.CI } : {}), ...(process.env.HEY_BIN ? { HEY_BIN: process.env.HEY_BIN } : {}) },
    });
    expect(output).toContain('load-tool contract: hey');
    expect(output).toMatch(/\b7 pass\b/);
    expect(output).toMatch(/\b0 fail\b/);
  }, 120_000);

  test("both plugins type-check strictly against the kit's published declarations alone", () => {
    const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
    const strict = ['--noEmit', '--strict', '--module', 'esnext', '--moduleResolution', 'bundler', '--target', 'es2022', '--allowImportingTsExtensions', 'index.ts'];
    for (const repo of [pluginRepo, journalRepo]) run('node', [tsc, ...strict], { cwd: repo });
  }, 120_000);

  test("the run journal's own tests pass there too, importing only the installed kit", () => {
    const { output } = run(process.execPath, ['test'], { cwd: journalRepo, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } });
    expect(output).toMatch(/\b4 pass\b/);
    expect(output).toMatch(/\b0 fail\b/);
  }, 120_000);

  test('packed and installed with `loadplane plugin install` on server and agent, it runs hey configured by env', async () => {
    // A version of its own, so what the plugins directory holds is the stranger's package, not this checkout's example.
    const manifest = JSON.parse(readFileSync(join(pluginRepo, 'package.json'), 'utf8'));
    writeFileSync(join(pluginRepo, 'package.json'), JSON.stringify({ ...manifest, version: '0.1.1-stranger' }, null, 2));
    const pluginTarball = pack(pluginRepo);
    const dataDir = mkdtempSync(join(work, 'data-'));
    const agentPlugins = join(work, 'agent-plugins');
    const server = await runLoadplane(['plugin', 'install', pluginTarball], { DATA_DIR: dataDir, ...offline });
    expect(server.code, server.stderr).toBe(0);
    expect(server.stdout).toContain(`installed loadplane-plugin-hey 0.1.1-stranger into ${join(dataDir, 'plugins')}`);
    const agentSide = await runLoadplane(['plugin', 'install', '--agent', pluginTarball], { AGENT_PLUGINS_DIR: agentPlugins, ...offline });
    expect(agentSide.code, agentSide.stderr).toBe(0);
    const listed = await runLoadplane(['plugin', 'list', '--agent'], { AGENT_PLUGINS_DIR: agentPlugins });
    expect(listed.stdout.trim()).toBe('loadplane-plugin-hey 0.1.1-stranger');
    const journal = await runLoadplane(['plugin', 'install', pack(journalRepo)], { DATA_DIR: dataDir, ...offline });
    expect(journal.code, journal.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dataDir, 'plugins/plugins.json'), 'utf8'))).toEqual({ plugins: ['loadplane-plugin-hey', 'loadplane-plugin-run-journal'] });

    if (!requireOrSkip(hey.found ? null : hey.reason, 'the packed plugin end to end')) return;
    // The found hey under another spelling: a configured binary other than the default is run with its version
    // unknown, so GET /machines shows the setting reached the agent (the located engine would report v0.1.4).
    const binary = `${dirname(hey.path)}/./${basename(hey.path)}`;
    const setting = { LOADPLANE_PLUGIN_LOADPLANE_PLUGIN_HEY_BINARY: binary };
    target = startDelayTarget({ delayMs: () => 2 });
    fixture = await startServiceWithAgentProcess('kit-owner', {
      dataDir,
      env: setting,
      hostname: 'kit-generator',
      agentEnv: { AGENT_PLUGINS_DIR: agentPlugins, ...setting },
    });
    const { ts, token, agent, machineId } = fixture;
    expect(agent.output()).toMatch(/\n {2}hey\s/);
    const machines = (await (await ts.request('/api/v1/machines', { token })).json()) as { id: string; tools: { tool: string; version: string | null }[] }[];
    expect(machines.find((machine) => machine.id === machineId)!.tools).toContainEqual({ tool: 'hey', version: null });

    const script = JSON.stringify({ url: `${target.url}/packed`, requests: 60, concurrency: 4 });
    const { task, served } = await runToEnd(ts, token, target, { tool: 'hey', script, machineIds: [machineId] }, () => agent.output().slice(-3000));
    expect(task.status).toBe('completed');
    expect(served).toBe(60);
    expect(task.total_requests).toBe(60);
    expect(task.error_rate).toBe(0);

    // The journal saw the run finish (from the outbox, into its own table) and serves it under /api/v1.
    const journalOf = async (as: string) => (await ts.request('/api/v1/run-journal?status=completed', { token: as })).json() as Promise<{ task_id: string; status: string; note: string | null }[]>;
    await waitFor(async () => (await journalOf(token)).some((entry) => entry.task_id === task.id), 30_000, 'the journal to record the hey run');
    expect((await journalOf(token)).find((entry) => entry.task_id === task.id)).toMatchObject({ status: 'completed', note: null });
    const noted = await ts.request(`/api/v1/run-journal/${task.id}/note`, { method: 'PUT', token, json: { note: 'baseline after the packed install' } });
    expect(noted.status).toBe(200);
    expect(((await noted.json()) as { note: string }).note).toBe('baseline after the packed install');
    const audit = (await (await ts.request('/api/v1/audit-log?action=run_journal.note_set', { token })).json()) as { target: { id: string } }[];
    expect(audit.map((entry) => entry.target.id)).toEqual([task.id]);
    expect((await ts.request('/api/v1/run-journal')).status).toBe(401);
    expect((await ts.request('/api/v1/run-journal?limit=0', { token })).status).toBe(400);
    const outsider = await ts.createUser('journal-outsider');
    expect(await journalOf(outsider)).toEqual([]);
    expect((await ts.request(`/api/v1/run-journal/${task.id}/note`, { method: 'PUT', token: outsider, json: { note: 'x' } })).status).toBe(404);
    const doc = (await (await ts.request('/swagger-ui/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/run-journal', '/api/v1/run-journal/{taskId}/note']));
  }, 180_000);
});
