/** Loads plugins by name: built-in ones from the plugin index, third-party ones by package name, through the same path. */
import type { PluginDefinition } from './define-plugin.ts';
import { KernelBootError } from './errors.ts';

export type PluginModule = { default: PluginDefinition };
export type PluginImporter = (name: string) => Promise<PluginModule>;

export async function loadPlugins(
  names: readonly string[],
  builtins: Readonly<Record<string, () => Promise<PluginModule>>>,
  importPackage: PluginImporter = (name) => import(name),
): Promise<PluginDefinition[]> {
  const loaded: PluginDefinition[] = [];
  for (const name of new Set(names)) {
    let module: PluginModule;
    try {
      module = await (builtins[name]?.() ?? importPackage(name));
    } catch (error) {
      throw new KernelBootError(`plugin "${name}" could not be loaded: ${(error as Error).message}`);
    }
    const plugin = module?.default;
    if (!plugin || typeof plugin.setup !== 'function' || typeof plugin.name !== 'string') {
      throw new KernelBootError(`module "${name}" does not default-export a plugin (definePlugin({...}))`);
    }
    loaded.push(plugin);
  }
  return loaded;
}
