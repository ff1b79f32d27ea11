/**
 * The composition root's plugin list: the built-in plugins by name, where each one runs, and how a name becomes a
 * plugin. Built-in and third-party plugins load through the same path (`loadPlugins`): a built-in name maps to its
 * folder here, any other name is imported as a package (LOADPLANE_PLUGINS on the server, `--plugins` on an agent, and
 * what `loadplane plugin install` recorded in a plugins directory).
 */
import { loadToolCapability } from '../../core/capabilities/load-tool.ts';
import type { PluginDefinition } from '../../core/kernel/define-plugin.ts';
import { loadPlugins, type PluginModule } from '../../core/kernel/load-plugins.ts';
import { importFromPluginDir, installedPluginNames } from './plugin-directory.ts';

/** Where a plugin runs: the control plane, the agent of a load-generator machine, or both (a load tool's two halves). */
export type PluginHost = 'server' | 'agent';

interface BuiltinPlugin {
  readonly on: readonly PluginHost[];
  load(): Promise<PluginModule>;
}

/**
 * One line per built-in plugin. A load tool runs on both hosts: the server validates its scripts and knows its id, the
 * agent runs its engine. Adding a built-in tool is one line here.
 */
export const builtinPlugins: Readonly<Record<string, BuiltinPlugin>> = {
  'identity-embedded': { on: ['server'], load: () => import('../../plugins/identity-embedded/index.ts') },
  'identity-oidc': { on: ['server'], load: () => import('../../plugins/identity-oidc/index.ts') },
  'notify-webhook': { on: ['server'], load: () => import('../../plugins/notify-webhook/index.ts') },
  'notify-email': { on: ['server'], load: () => import('../../plugins/notify-email/index.ts') },
  mcp: { on: ['server'], load: () => import('../../plugins/mcp/index.ts') },
  'ui-admin': { on: ['server'], load: () => import('../../plugins/ui-admin/index.ts') },
  'load-tool-custom': { on: ['server', 'agent'], load: () => import('../../plugins/load-tool-custom/index.ts') },
  'load-tool-k6': { on: ['server', 'agent'], load: () => import('../../plugins/load-tool-k6/index.ts') },
  'load-tool-locust': { on: ['server', 'agent'], load: () => import('../../plugins/load-tool-locust/index.ts') },
  'load-tool-artillery': { on: ['server', 'agent'], load: () => import('../../plugins/load-tool-artillery/index.ts') },
  'load-tool-gatling': { on: ['server', 'agent'], load: () => import('../../plugins/load-tool-gatling/index.ts') },
  'load-tool-jmeter': { on: ['server', 'agent'], load: () => import('../../plugins/load-tool-jmeter/index.ts') },
  'load-tool-http': { on: ['server', 'agent'], load: () => import('../../plugins/load-tool-http/index.ts') },
};

/**
 * The built-in plugins a host loads; the embedded identity provider only when no external one is configured, the admin
 * UI unless it is turned off (UI_ENABLED=false).
 */
export function builtinPluginNames(host: PluginHost, options: { embeddedIdentity?: boolean; ui?: boolean } = {}): string[] {
  return Object.entries(builtinPlugins)
    .filter(([, plugin]) => plugin.on.includes(host))
    .filter(([name]) => name !== 'identity-embedded' || options.embeddedIdentity !== false)
    .filter(([name]) => name !== 'ui-admin' || options.ui !== false)
    .map(([name]) => name);
}

const builtinModules = Object.fromEntries(Object.entries(builtinPlugins).map(([name, plugin]) => [name, plugin.load]));

/**
 * Plugins by name, in order, each once: a built-in name from its folder, any other as a package resolved from the
 * plugins directory `pluginDir` (`loadplane plugin install`'s), then from this checkout (its node_modules), e.g.
 * `loadplane-plugin-hey` or `@acme/loadplane-plugin-x`.
 */
export function loadPluginsByName(names: readonly string[], pluginDir?: string): Promise<PluginDefinition[]> {
  return loadPlugins(names, builtinModules, importFromPluginDir(pluginDir));
}

/**
 * The server's plugins: the built-in server plugins, then the configured ones (LOADPLANE_PLUGINS), then those
 * installed in its plugins directory (`$DATA_DIR/plugins`).
 */
export function loadServerPlugins(options: {
  extra: readonly string[];
  embeddedIdentity: boolean;
  ui?: boolean;
  leaveOut?: readonly string[];
  pluginDir?: string;
}): Promise<PluginDefinition[]> {
  const builtins = builtinPluginNames('server', { embeddedIdentity: options.embeddedIdentity, ui: options.ui }).filter(
    (name) => !options.leaveOut?.includes(name),
  );
  const installed = options.pluginDir ? installedPluginNames(options.pluginDir) : [];
  return loadPluginsByName([...builtins, ...options.extra, ...installed], options.pluginDir);
}

/**
 * An agent's plugins: the built-in load tools, the named ones (`npm run agent -- --plugins a,b`), then those installed
 * in its plugins directory (AGENT_PLUGINS_DIR, ~/.cache/loadplane/plugins by default).
 */
export function loadAgentPlugins(extra: readonly string[] = [], pluginDir?: string): Promise<PluginDefinition[]> {
  const installed = pluginDir ? installedPluginNames(pluginDir) : [];
  return loadPluginsByName([...builtinPluginNames('agent'), ...extra, ...installed], pluginDir);
}

/** The load-tool plugins among a server's (built-in and LOADPLANE_PLUGINS): what its local agent runs. */
export function loadToolPluginsOf(service: { plugins: readonly PluginDefinition[]; kernel: { providersOf(capability: typeof loadToolCapability): readonly string[] } }): PluginDefinition[] {
  const providers = new Set(service.kernel.providersOf(loadToolCapability));
  return service.plugins.filter((plugin) => providers.has(plugin.name));
}
