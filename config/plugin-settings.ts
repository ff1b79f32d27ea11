/**
 * The operator's settings of each loaded plugin: LOADPLANE_PLUGIN_<NAME>_<KEY> variables over the LOADPLANE_CONFIG
 * file, mapped to keys and typed by the plugin's config schema. Unknown keys, values of the wrong type and variables
 * for no plugin are errors naming the plugin and the key, never skipped in silence.
 */
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { coerceBySchema, kindOf, propertiesOf } from './coerce-by-schema.ts';
import { PluginConfigError } from './plugin-config-error.ts';
import type { PluginSources } from './plugin-sources.ts';
import { camelCase, nestedKeySeparator, pluginVariable, pluginVariableName, pluginVariablePrefix, screamingSnake } from './plugin-variable-names.ts';
import { shownValue } from './shown-value.ts';

/** What this needs of a plugin definition. */
export interface ConfigurablePlugin {
  readonly name: string;
  readonly configSchema?: TSchema;
}

export interface PluginSettings {
  /** Slices by plugin name: the file's values, the variables' over them. Only plugins loaded here. */
  readonly slices: Record<string, Record<string, unknown>>;
  /** Where each value came from, by plugin then key path (`bruteForce.failureFactor` -> the variable or file entry). */
  readonly origins: Record<string, Record<string, string>>;
  /** Settings for plugins not loaded here, by variable or file entry (names only, never values): to warn about. */
  readonly skipped: string[];
}

export interface PluginSettingsOptions {
  plugins: readonly ConfigurablePlugin[];
  sources: PluginSources;
  /** Plugins that may be configured though not loaded here (built-ins this host leaves out): skipped with a warning. */
  elsewhere?: readonly string[];
  /**
   * Settings of a plugin nobody knows: an error (the server, which loads every plugin), or skipped with a warning (an
   * agent, which loads the load tools only while its variables and file may be the server's too).
   */
  unknownPlugins: 'error' | 'skip';
}

interface Assignment {
  path: string[];
  value: unknown;
  origin: string;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export function resolvePluginSettings(options: PluginSettingsOptions): PluginSettings {
  const loaded = new Map(options.plugins.map((plugin) => [plugin.name, plugin]));
  const skipped: string[] = [];
  const fromFile = new Map<string, Assignment[]>();
  const fromEnv = new Map<string, Assignment[]>();
  const file = options.sources.file;

  for (const [name, slice] of Object.entries(file?.plugins ?? {})) {
    const plugin = loaded.get(name);
    const entry = `plugins["${name}"] of LOADPLANE_CONFIG (${file!.path})`;
    if (!plugin) {
      if (options.elsewhere?.includes(name) || options.unknownPlugins === 'skip') skipped.push(`${entry}: plugin "${name}" is not loaded here`);
      else throw new PluginConfigError(`${entry}: no plugin "${name}" is loaded (loaded: ${[...loaded.keys()].join(', ')})`);
      continue;
    }
    const where = (path: readonly string[]) => `${path.join('.')} in LOADPLANE_CONFIG (${file!.path}, plugins["${name}"])`;
    fromFile.set(name, collect(plugin, plugin.configSchema ?? null, slice, [], where));
  }

  const owners = ownersByVariableName([...loaded.keys(), ...(options.elsewhere ?? [])]);
  for (const variable of Object.keys(options.sources.variables).sort()) {
    const rest = variable.slice(pluginVariablePrefix.length);
    const name = [...owners.keys()].filter((n) => rest.startsWith(`${n}_`) && rest.length > n.length + 1).sort((a, b) => b.length - a.length)[0];
    if (name === undefined) {
      if (options.unknownPlugins === 'skip') skipped.push(`${variable}: names no plugin loaded here`);
      else throw new PluginConfigError(`${variable} names no loaded plugin: plugin settings are ${pluginVariablePrefix}<NAME>_<KEY>, NAME one of ${[...owners.keys()].sort().join(', ')}`);
      continue;
    }
    const candidates = owners.get(name)!;
    if (candidates.length > 1) throw new PluginConfigError(`${variable} could be for plugin ${candidates.map((c) => `"${c}"`).join(' or ')}; set it in LOADPLANE_CONFIG instead`);
    const plugin = loaded.get(candidates[0]!);
    if (!plugin) {
      skipped.push(`${variable}: plugin "${candidates[0]}" is not loaded here`);
      continue;
    }
    const assignments = fromEnv.get(plugin.name) ?? [];
    assignments.push(...fromVariable(plugin, variable, rest.slice(name.length + 1), options.sources.variables[variable]!));
    fromEnv.set(plugin.name, assignments);
  }

  const slices: Record<string, Record<string, unknown>> = {};
  const origins: Record<string, Record<string, string>> = {};
  for (const name of new Set([...fromFile.keys(), ...fromEnv.keys()])) {
    const slice: Record<string, unknown> = {};
    const origin: Record<string, string> = {};
    // The environment wins over the file. Two variables for one key (a JSON object and a nested variable) is a mistake.
    for (const assignment of fromFile.get(name) ?? []) {
      setAt(slice, assignment.path, assignment.value);
      origin[assignment.path.join('.')] = assignment.origin;
    }
    const byVariable = new Map<string, string>();
    for (const assignment of fromEnv.get(name) ?? []) {
      const key = assignment.path.join('.');
      const other = byVariable.get(key);
      if (other !== undefined) throw new PluginConfigError(`plugin "${name}": ${key} is set by both ${other} and ${assignment.origin}`);
      byVariable.set(key, assignment.origin);
      setAt(slice, assignment.path, assignment.value);
      origin[key] = assignment.origin;
    }
    slices[name] = slice;
    origins[name] = origin;
  }
  return { slices, origins, skipped };
}

/** Plugin names by their NAME in variables; two plugins with one NAME (`a-b`, `@a/b`) are both listed. */
function ownersByVariableName(names: readonly string[]): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  for (const name of new Set(names)) owners.set(pluginVariableName(name), [...(owners.get(pluginVariableName(name)) ?? []), name]);
  return owners;
}

/** One variable's key path (by the schema's own keys, so `API_URL` finds `apiUrl`) and its value, typed by the schema. */
function fromVariable(plugin: ConfigurablePlugin, variable: string, keyText: string, raw: string): Assignment[] {
  const segments = keyText.split(nestedKeySeparator);
  if (segments.some((segment) => segment === '' || segment.startsWith('_') || segment.endsWith('_'))) {
    throw new PluginConfigError(`plugin "${plugin.name}": ${variable} is not a key: words are joined by _, nested keys by __ (e.g. ${pluginVariablePrefix}MCP_AI__MODEL)`);
  }
  let schema: TSchema | null = plugin.configSchema ?? null;
  const path: string[] = [];
  for (const segment of segments) {
    if (schema === null) {
      // No schema: the plugin cannot tell how its keys are spelt; camelCase is every built-in's habit.
      path.push(camelCase(segment));
      continue;
    }
    const properties = propertiesOf(schema);
    if (!properties) {
      throw new PluginConfigError(
        `plugin "${plugin.name}": ${variable}: ${path.join('.')} is ${kindOf(schema).toLowerCase()}, not an object with named keys; set it whole as JSON in ${pluginVariable(plugin.name, path)}`,
      );
    }
    const key = Object.keys(properties).find((candidate) => screamingSnake(candidate) === segment);
    if (key === undefined) {
      const known = Object.keys(properties).map((candidate) => pluginVariable(plugin.name, [...path, candidate]));
      throw new PluginConfigError(`plugin "${plugin.name}": ${variable} is not one of its settings (${known.join(', ') || 'it has none'})`);
    }
    path.push(key);
    schema = properties[key]!;
  }
  if (schema === null) return [{ path, value: raw, origin: variable }];
  const coerced = coerceBySchema(schema, raw);
  if (!coerced.ok) throw new PluginConfigError(`plugin "${plugin.name}": ${variable} must be ${coerced.expected}, got ${shownValue(variable, raw)}`);
  const where = (at: readonly string[]) => (at.length === path.length ? variable : `${variable} (key ${at.slice(path.length).join('.')})`);
  return collect(plugin, schema, coerced.value, path, where);
}

/**
 * The settings in `value` at `path`, checked against the schema: an object's keys must be the schema's, and every
 * other value must fit its key's schema. Objects are not checked whole here, since the rest of one may come from the
 * service's own configuration; the merged slice is (check-plugin-slices.ts).
 */
function collect(plugin: ConfigurablePlugin, schema: TSchema | null, value: unknown, path: string[], where: (path: readonly string[]) => string): Assignment[] {
  const properties = schema ? propertiesOf(schema) : null;
  if (properties) {
    if (!isPlainObject(value)) throw new PluginConfigError(`plugin "${plugin.name}": ${where(path)} must be an object, got ${shownValue(path.join('.'), value)}`);
    const unknown = Object.keys(value).filter((key) => !(key in properties));
    if (unknown.length > 0) {
      const names = unknown.map((key) => [...path, key].join('.')).join(', ');
      throw new PluginConfigError(`plugin "${plugin.name}": unknown setting(s) ${names} in ${where(path)} (known: ${Object.keys(properties).join(', ') || 'none'})`);
    }
    const entries = Object.entries(value);
    if (entries.length === 0) return [{ path, value: {}, origin: where(path) }];
    return entries.flatMap(([key, item]) => collect(plugin, properties[key]!, item, [...path, key], where));
  }
  if (schema) {
    const error = Value.Errors(schema, Value.Default(schema, structuredClone(value))).First();
    if (error) {
      const at = [...path, ...error.path.split('/').filter(Boolean)].join('.');
      throw new PluginConfigError(`plugin "${plugin.name}": ${where(path)}${at !== path.join('.') ? ` (at ${at})` : ''}: ${error.message}, got ${shownValue(path.join('.'), value)}`);
    }
  }
  return [{ path, value, origin: where(path) }];
}

/** Sets `value` at `path`, creating the objects on the way. */
function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  if (path.length === 0) {
    if (isPlainObject(value)) Object.assign(target, value);
    return;
  }
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  node[last] = isPlainObject(value) && isPlainObject(node[last]) ? { ...(node[last] as object), ...value } : value;
}
