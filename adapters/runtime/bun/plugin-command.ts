/**
 * `loadplane plugin install|list|remove`: plugins on a deployment without editing package.json or LOADPLANE_PLUGINS.
 * npm installs the package into a plugins directory (with this Loadplane's own plugin kit, the peer every plugin
 * names), the name goes into the directory's plugins.json, and the service or agent loads it at its next start.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadPlugins } from '../../../core/kernel/load-plugins.ts';
import { isSingleExecutable } from './single-executable.ts';
import {
  agentPluginDir,
  importFromPluginDir,
  installedPluginNames,
  serverPluginDir,
  writeInstalledPluginNames,
} from '../../composition/plugin-directory.ts';

export const pluginUsage = `usage: loadplane plugin install <tarball | folder | package spec> [--agent] [--dir DIR]
       loadplane plugin list [--agent] [--dir DIR]
       loadplane plugin remove <package name> [--agent] [--dir DIR]

  Installs a plugin package with npm into a plugins directory and records it there (plugins.json), so the service, or
  the agent, loads it at its next start: restart it afterwards. Its settings: LOADPLANE_PLUGIN_<NAME>_<KEY> variables
  or LOADPLANE_CONFIG, as every plugin's. A load-tool plugin goes on the server and on every agent that runs it.

  --agent   the agent's plugins directory: env AGENT_PLUGINS_DIR, default ~/.cache/loadplane/plugins
            (without it: the service's, $DATA_DIR/plugins, with DATA_DIR as the service reads it, default ./data)
  --dir     this plugins directory instead`;

/** The checkout's plugin kit, which every installed plugin imports (its peer dependency). */
const kitDir = fileURLToPath(new URL('../../../packages/plugin-kit', import.meta.url));
const kitName = '@loadplane/plugin-kit';

function refuse(message: string): never {
  console.error(`loadplane plugin: ${message}\n\n${pluginUsage}`);
  process.exit(2);
}

function fail(message: string): never {
  console.error(`loadplane plugin: ${message}`);
  process.exit(1);
}

const dependenciesOf = (dir: string): Record<string, string> =>
  existsSync(resolve(dir, 'package.json')) ? ((JSON.parse(readFileSync(resolve(dir, 'package.json'), 'utf8')).dependencies ?? {}) as Record<string, string>) : {};

function npm(dir: string, args: string[]): void {
  // npm's own output goes to stderr: this command's stdout says only what was done. A single executable's plugins
  // take its own kit, so npm must not look for their peer dependency anywhere.
  const peers = isSingleExecutable() ? ['--legacy-peer-deps'] : [];
  const result = spawnSync('npm', [...args, ...peers, '--prefix', dir, '--no-audit', '--no-fund'], { stdio: ['ignore', 2, 2] });
  if (result.error) fail(`cannot run npm (${result.error.message}): installing a plugin package needs npm on this machine`);
  if (result.status !== 0) fail(`npm ${args[0]} failed (exit ${result.status}); see its output above`);
}

async function install(dir: string, spec: string): Promise<void> {
  // A single executable has no checkout to take the kit from: it hands plugins its own copy when it loads them.
  const bundledKit = isSingleExecutable();
  if (!bundledKit && !existsSync(resolve(kitDir, 'dist/index.js'))) fail(`the plugin kit is not built in ${kitDir}: run npm run build:plugin-kit`);
  mkdirSync(dir, { recursive: true });
  if (!existsSync(resolve(dir, 'package.json'))) {
    writeFileSync(resolve(dir, 'package.json'), `${JSON.stringify({ name: 'loadplane-plugins', private: true, description: 'Plugins installed by loadplane plugin install' }, null, 2)}\n`);
  }
  const before = dependenciesOf(dir);
  // npm reads a relative path against the directory it installs into: make a tarball's or folder's path absolute.
  const target = existsSync(spec) ? resolve(spec) : spec;
  // This Loadplane's kit beside the plugin: the plugin's peer dependency, and what its imports resolve to.
  npm(dir, bundledKit ? ['install', target] : ['install', kitDir, target]);
  const after = dependenciesOf(dir);
  const added = Object.keys(after).filter((name) => name !== kitName && after[name] !== before[name]);
  if (added.length === 0) {
    console.log(`nothing new in ${dir} (already installed?); installed plugins: ${installedPluginNames(dir).join(', ') || 'none'}`);
    return;
  }
  // Only a package that default-exports a plugin is recorded: a wrong one would stop the next start instead.
  try {
    await loadPlugins(added, {}, importFromPluginDir(dir));
  } catch (error) {
    npm(dir, ['uninstall', ...added]);
    fail(`${(error as Error).message}; removed it again`);
  }
  writeInstalledPluginNames(dir, [...installedPluginNames(dir), ...added]);
  for (const name of added) console.log(`installed ${name} ${versionOf(dir, name)} into ${dir}`);
  console.log('restart the service (or the agent) to load it');
}

const versionOf = (dir: string, name: string): string => {
  const file = resolve(dir, 'node_modules', name, 'package.json');
  return existsSync(file) ? String(JSON.parse(readFileSync(file, 'utf8')).version ?? '') : '(not installed)';
};

export async function runPluginCommand(argv: readonly string[], env: Record<string, string | undefined>): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { agent: { type: 'boolean' }, dir: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    refuse((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(pluginUsage);
    return;
  }
  const [action, ...names] = positionals;
  const dir = resolve(values.dir ?? (values.agent ? agentPluginDir(env) : serverPluginDir(env.DATA_DIR?.trim() || './data')));
  if (action === 'install' && names.length === 1) return install(dir, names[0]!);
  if (action === 'list' && names.length === 0) {
    for (const name of installedPluginNames(dir)) console.log(`${name} ${versionOf(dir, name)}`);
    return;
  }
  if (action === 'remove' && names.length === 1) {
    const name = names[0]!;
    if (!installedPluginNames(dir).includes(name)) fail(`${name} is not installed in ${dir}`);
    npm(dir, ['uninstall', name]);
    writeInstalledPluginNames(dir, installedPluginNames(dir).filter((installed) => installed !== name));
    console.log(`removed ${name} from ${dir}; restart the service (or the agent) to unload it`);
    return;
  }
  refuse(action ? `"${[action, ...names].join(' ')}" is not a plugin command` : 'install, list or remove?');
}
