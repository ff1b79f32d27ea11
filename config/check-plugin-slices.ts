/**
 * Each plugin's final slice (derived, then the operator's) against its schema, before the kernel sets anything up,
 * so that an error says where the value came from: a variable, the config file, or the service's own configuration.
 */
import { Value } from '@sinclair/typebox/value';
import { PluginConfigError } from './plugin-config-error.ts';
import type { ConfigurablePlugin } from './plugin-settings.ts';
import { pluginVariable } from './plugin-variable-names.ts';
import { shownValue } from './shown-value.ts';

const valueAt = (slice: unknown, path: readonly string[]) =>
  path.reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), slice);

/** Throws a PluginConfigError for the first plugin whose slice does not fit its schema; `origins` as plugin-settings.ts gives them. */
export function checkPluginSlices(
  plugins: readonly ConfigurablePlugin[],
  slices: Readonly<Record<string, unknown>>,
  origins: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
): void {
  for (const plugin of plugins) {
    if (!plugin.configSchema) continue;
    const value = Value.Default(plugin.configSchema, structuredClone(slices[plugin.name] ?? {}));
    const error = Value.Errors(plugin.configSchema, value).First();
    if (!error) continue;
    const path = error.path.split('/').filter(Boolean);
    const key = path.join('.') || '(the slice)';
    // The operator's entry that set this key or an object above it, if any.
    const set = path.map((_, i) => path.slice(0, path.length - i).join('.')).find((prefix) => origins[plugin.name]?.[prefix] !== undefined);
    const current = valueAt(value, path);
    const source =
      set !== undefined
        ? `${origins[plugin.name]![set]}, got ${shownValue(key, current)}`
        : current === undefined
          ? `unset: set ${pluginVariable(plugin.name, path)} or plugins["${plugin.name}"].${key} in LOADPLANE_CONFIG`
          : `from the service's own configuration, got ${shownValue(key, current)}`;
    throw new PluginConfigError(`plugin "${plugin.name}": ${key} (${source}): ${error.message}`);
  }
}
