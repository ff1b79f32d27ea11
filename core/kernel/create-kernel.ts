/** The kernel: checks plugin metadata, sets plugins up in dependency order, freezes the registry, and stops in reverse. */
import { Value } from '@sinclair/typebox/value';
import type { AnyCapabilityToken, CapabilityToken } from './define-capability.ts';
import type { PluginContext, PluginDefinition } from './define-plugin.ts';
import { KernelBootError } from './errors.ts';
import { createHookBus, type HookBus } from './hook-bus.ts';
import type { KernelHooks } from './hooks.ts';
import type { Logger } from './logger.ts';

export interface KernelOptions {
  plugins: readonly PluginDefinition[];
  logger: Logger;
  /** Per-plugin configuration slices, by plugin name; validated against each plugin's configSchema. */
  pluginConfig?: Readonly<Record<string, unknown>>;
  /** Ports and capabilities the host provides before any plugin runs (database, clock, key store...). */
  provided?: ReadonlyArray<readonly [AnyCapabilityToken, unknown]>;
  /** Capabilities that must have a provider once every plugin is set up. */
  required?: readonly AnyCapabilityToken[];
}

export interface Kernel {
  readonly hooks: HookBus<KernelHooks>;
  /** Plugin names in the order they were set up. */
  readonly order: readonly string[];
  get<T>(capability: CapabilityToken<T, 'one'>): T;
  getAll<T>(capability: CapabilityToken<T, 'many'>): readonly T[];
  has(capability: AnyCapabilityToken): boolean;
  /** The plugins that provide a capability, in boot order (`host` for what the host provided). */
  providersOf(capability: AnyCapabilityToken): readonly string[];
  stop(): Promise<void>;
}

interface Entry {
  capability: AnyCapabilityToken;
  implementation: unknown;
  provider: string;
}

/** Orders plugins so each comes after what it depends on; rejects duplicates, unknown dependencies and cycles. */
export function resolvePluginOrder(plugins: readonly PluginDefinition[]): PluginDefinition[] {
  const byName = new Map<string, PluginDefinition>();
  for (const plugin of plugins) {
    if (!/^(@[a-z0-9-]+\/)?[a-z0-9][a-z0-9-]*$/.test(plugin.name)) {
      throw new KernelBootError(`plugin name "${plugin.name}" is not kebab-case`);
    }
    if (byName.has(plugin.name)) throw new KernelBootError(`plugin "${plugin.name}" is registered twice`);
    byName.set(plugin.name, plugin);
  }
  for (const plugin of plugins) {
    for (const dependency of plugin.dependsOn ?? []) {
      if (!byName.has(dependency)) {
        throw new KernelBootError(`plugin "${plugin.name}" depends on "${dependency}", which is not loaded`);
      }
    }
  }
  const ordered: PluginDefinition[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (plugin: PluginDefinition, path: string[]) => {
    const seen = state.get(plugin.name);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      throw new KernelBootError(`plugin dependency cycle: ${[...path, plugin.name].join(' -> ')}`);
    }
    state.set(plugin.name, 'visiting');
    for (const dependency of plugin.dependsOn ?? []) visit(byName.get(dependency)!, [...path, plugin.name]);
    state.set(plugin.name, 'done');
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}

function validatePluginConfig(plugin: PluginDefinition, raw: unknown): unknown {
  if (!plugin.configSchema) return Object.freeze(raw ?? {});
  const value = Value.Default(plugin.configSchema, structuredClone(raw ?? {}));
  const errors = [...Value.Errors(plugin.configSchema, value)];
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new KernelBootError(`plugin "${plugin.name}" config ${first.path || '/'}: ${first.message}`);
  }
  return Object.freeze(value);
}

export async function createKernel(options: KernelOptions): Promise<Kernel> {
  const ordered = resolvePluginOrder(options.plugins);
  const configs = new Map(ordered.map((p) => [p.name, validatePluginConfig(p, options.pluginConfig?.[p.name])]));
  const hooks = createHookBus<KernelHooks>((name, error) =>
    options.logger.error('hook handler failed', { hook: name, error: String(error) }),
  );
  const registry = new Map<string, Entry[]>();
  const teardowns: { plugin: string; run: () => void | Promise<void> }[] = [];
  const abort = new AbortController();
  let frozen = false;

  const register = (capability: AnyCapabilityToken, implementation: unknown, provider: string) => {
    if (frozen) throw new KernelBootError(`plugin "${provider}" provided ${capability.id} after boot`);
    const entries = registry.get(capability.id) ?? [];
    if (capability.cardinality === 'one' && entries.length > 0) {
      throw new KernelBootError(
        `${capability.id} is provided by both "${entries[0]!.provider}" and "${provider}"; only one may provide it`,
      );
    }
    if (capability.cardinality === 'many' && capability.key) {
      const key = capability.key(implementation);
      const clash = entries.find((entry) => capability.key!(entry.implementation) === key);
      if (clash) {
        throw new KernelBootError(
          `${capability.id} "${key}" is provided by both "${clash.provider}" and "${provider}"`,
        );
      }
    }
    entries.push({ capability, implementation, provider });
    registry.set(capability.id, entries);
  };

  const lookup = (capability: AnyCapabilityToken, requester: string): unknown => {
    const entries = registry.get(capability.id) ?? [];
    if (capability.cardinality === 'many') return Object.freeze(entries.map((entry) => entry.implementation));
    if (entries.length === 0) {
      throw new KernelBootError(`${requester} uses ${capability.id}, but no plugin loaded before it provides it`);
    }
    return entries[0]!.implementation;
  };

  for (const [capability, implementation] of options.provided ?? []) register(capability, implementation, 'host');

  const setUp: string[] = [];
  try {
    for (const plugin of ordered) {
      const logger = options.logger.child({ plugin: plugin.name });
      const context: PluginContext<unknown> = {
        config: configs.get(plugin.name),
        logger,
        hooks,
        signal: abort.signal,
        provide: (capability, implementation) => register(capability, implementation, plugin.name),
        use: ((capability: AnyCapabilityToken) =>
          lookup(capability, `plugin "${plugin.name}"`)) as PluginContext['use'],
        has: (capability) => (registry.get(capability.id)?.length ?? 0) > 0,
        onStop: (run) => teardowns.push({ plugin: plugin.name, run }),
      };
      await plugin.setup(context);
      setUp.push(plugin.name);
    }
    for (const capability of options.required ?? []) {
      if ((registry.get(capability.id)?.length ?? 0) === 0) {
        throw new KernelBootError(`no loaded plugin provides ${capability.id}`);
      }
    }
  } catch (error) {
    abort.abort();
    await runTeardowns(teardowns, options.logger);
    throw error;
  }
  frozen = true;

  const kernel: Kernel = {
    hooks,
    order: Object.freeze(setUp),
    get: (capability) => lookup(capability, 'the host') as never,
    getAll: (capability) => lookup(capability, 'the host') as never,
    has: (capability) => (registry.get(capability.id)?.length ?? 0) > 0,
    providersOf: (capability) => Object.freeze((registry.get(capability.id) ?? []).map((entry) => entry.provider)),
    async stop() {
      if (abort.signal.aborted) return;
      await hooks.callHook('kernel:stopping', {});
      abort.abort();
      await runTeardowns(teardowns, options.logger);
    },
  };
  await hooks.callHook('kernel:ready', { plugins: kernel.order });
  return kernel;
}

async function runTeardowns(teardowns: { plugin: string; run: () => void | Promise<void> }[], logger: Logger) {
  for (const teardown of teardowns.splice(0).reverse()) {
    try {
      await teardown.run();
    } catch (error) {
      logger.error('plugin teardown failed', { plugin: teardown.plugin, error: String(error) });
    }
  }
}
