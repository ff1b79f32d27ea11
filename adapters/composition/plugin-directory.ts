/**
 * A plugins directory: packages `loadplane plugin install` put there with npm (`<dir>/node_modules`), and the list of
 * those to load, `<dir>/plugins.json` ({"plugins": ["name", ...]}). The service's is `$DATA_DIR/plugins`, an agent's
 * AGENT_PLUGINS_DIR or ~/.cache/loadplane/plugins. Names resolve from the directory first, then from the checkout.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { KernelBootError } from '../../core/kernel/errors.ts';
import type { PluginModule } from '../../core/kernel/load-plugins.ts';

export const pluginListFile = 'plugins.json';

/** The service's plugins directory. */
export const serverPluginDir = (dataDir: string) => join(dataDir, 'plugins');

/** An agent's plugins directory (not under its state directory: that one is hidden from tools and holds its key). */
export const agentPluginDir = (env: Readonly<Record<string, string | undefined>>) =>
  env.AGENT_PLUGINS_DIR?.trim() || join(homedir(), '.cache/loadplane/plugins');

/** The names `loadplane plugin install` recorded in `dir`; none when nothing was installed there. */
export function installedPluginNames(dir: string): string[] {
  const file = join(dir, pluginListFile);
  if (!existsSync(file)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new KernelBootError(`${file} is not valid JSON (${(error as Error).message}); it lists the installed plugins: {"plugins": ["name"]}`);
  }
  const names = (parsed as { plugins?: unknown })?.plugins;
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
    throw new KernelBootError(`${file} must be {"plugins": ["<package name>", ...]}`);
  }
  return names;
}

export function writeInstalledPluginNames(dir: string, names: readonly string[]): void {
  writeFileSync(join(dir, pluginListFile), `${JSON.stringify({ plugins: [...new Set(names)] }, null, 2)}\n`);
}

/**
 * Imports a package by name from `dir`'s node_modules when it is there, else as the checkout would (its node_modules).
 * Resolved from a file inside `dir`, so the package's own imports (the plugin kit) resolve there too.
 */
export function importFromPluginDir(dir: string | undefined): (name: string) => Promise<PluginModule> {
  return (name) => {
    if (dir && existsSync(join(dir, 'node_modules', ...name.split('/'), 'package.json'))) {
      const path = createRequire(join(dir, 'package.json')).resolve(name);
      return import(pathToFileURL(path).href) as Promise<PluginModule>;
    }
    return import(name) as Promise<PluginModule>;
  };
}
