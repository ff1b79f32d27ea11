/**
 * What an operator sets for plugins, as written: the LOADPLANE_PLUGIN_* variables and the `plugins` section of the
 * LOADPLANE_CONFIG file. Read once at start by the service's and the agent's entries; which plugin and key each value
 * is for, and its type, are worked out once the plugins are loaded (plugin-settings.ts).
 */
import { readFileSync } from 'node:fs';
import { pluginVariablePrefix } from './plugin-variable-names.ts';

export interface PluginSources {
  /** LOADPLANE_PLUGIN_* variables by name, trimmed; blank ones are unset, as every variable of the service. */
  readonly variables: Readonly<Record<string, string>>;
  /** LOADPLANE_CONFIG's `plugins`: slices by plugin name, as the file has them. */
  readonly file: { readonly path: string; readonly plugins: Readonly<Record<string, Record<string, unknown>>> } | null;
}

export const noPluginSources: PluginSources = Object.freeze({ variables: Object.freeze({}), file: null });

/** A LOADPLANE_CONFIG that cannot be used; the message never quotes the file's contents (they may hold secrets). */
export class PluginSourcesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PluginSourcesError';
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The plugin variables of `env` and the file LOADPLANE_CONFIG names (read with `readText`, node:fs by default). */
export function readPluginSources(
  env: Readonly<Record<string, string | undefined>>,
  readText: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): PluginSources {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith(pluginVariablePrefix) && value !== undefined && value.trim() !== '') variables[name] = value.trim();
  }
  const path = env.LOADPLANE_CONFIG?.trim();
  return Object.freeze({ variables: Object.freeze(variables), file: path ? readConfigFile(path, readText) : null });
}

function readConfigFile(path: string, readText: (path: string) => string): NonNullable<PluginSources['file']> {
  let text: string;
  try {
    text = readText(path);
  } catch (error) {
    throw new PluginSourcesError(`LOADPLANE_CONFIG: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text near the error, which may be a secret.
    throw new PluginSourcesError(`LOADPLANE_CONFIG: ${path} is not valid JSON`);
  }
  if (!isPlainObject(parsed)) throw new PluginSourcesError(`LOADPLANE_CONFIG: ${path} must hold a JSON object, { "plugins": { "<plugin name>": { ... } } }`);
  // Only `plugins` for now: any other key is a mistake to report, not to skip (`$schema` is an editor's hint).
  const unknown = Object.keys(parsed).filter((key) => key !== 'plugins' && key !== '$schema');
  if (unknown.length > 0) throw new PluginSourcesError(`LOADPLANE_CONFIG: ${path} has unknown key(s) ${unknown.map((key) => JSON.stringify(key)).join(', ')}; it holds "plugins" only`);
  const plugins = parsed.plugins ?? {};
  if (!isPlainObject(plugins)) throw new PluginSourcesError(`LOADPLANE_CONFIG: ${path}: "plugins" must be an object of plugin name -> settings`);
  for (const [name, slice] of Object.entries(plugins)) {
    if (!isPlainObject(slice)) throw new PluginSourcesError(`LOADPLANE_CONFIG: ${path}: plugins.${name} must be an object of settings`);
  }
  return Object.freeze({ path, plugins: plugins as Record<string, Record<string, unknown>> });
}
