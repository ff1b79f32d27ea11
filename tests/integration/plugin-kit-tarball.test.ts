/**
 * A plugin shipped as a stranger would: the kit packed (`npm pack`) and installed from its tarball, offline, into a
 * copy of the example plugin outside this repository, whose own contract suite passes there with `bun test`; the
 * plugin packed in turn and installed with `loadplane plugin install` into a fresh plugins directory on the server
 * and on an agent process, which load it by package name from there (no LOADPLANE_PLUGINS, no --plugins), configured
 * by a LOADPLANE_PLUGIN_LOADPLANE_PLUGIN_HEY_* variable, and run a hey test end to end.
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
import { type ServiceWithAgentProcess, startServiceWithAgentProcess } from '../helpers/service-with-agent.ts';
import { repoRoot } from '../helpers/service-process.ts';

const hey = await locateEngineOnHost(heyEngine, { env: process.env });
const work = mkdtempSync(join(tmpdir(), 'loadplane-stranger-'));
const pluginRepo = join(work, 'loadplane-plugin-hey');
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
  // The stranger's repository: the example's files only (no node_modules, no link into this checkout).
  const example = join(repoRoot, 'examples/loadplane-plugin-hey');
  cpSync(example, pluginRepo, { recursive: true, filter: (path) => !path.includes('node_modules') });
  // --no-save: package.json keeps its ranges (npm would write the tarball's path into the peer dependency as well).
  run('npm', ['install', '--no-save', kitTarball], { cwd: pluginRepo });
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
    expect(JSON.parse(readFileSync(join(dataDir, 'plugins/plugins.json'), 'utf8'))).toEqual({ plugins: ['loadplane-plugin-hey'] });

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
  }, 180_000);
});
