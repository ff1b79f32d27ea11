/**
 * A kernel for a plugin's own tests, typed with the kit's plugin shape (core's kernel types name its database library,
 * which a plugin's repository does not have): boot plugins, then read what they provided.
 */
import type { AnyCapabilityToken, CapabilityToken } from '../../../core/kernel/define-capability.ts';
import { createKernel as createCoreKernel } from '../../../core/kernel/create-kernel.ts';
import type { PluginDefinition as CorePluginDefinition } from '../../../core/kernel/define-plugin.ts';
import { type Logger, silentLogger } from '../../../core/kernel/logger.ts';
import type { PluginDefinition } from './plugin-definition.ts';

export interface TestKernelOptions {
  plugins: readonly PluginDefinition[];
  logger?: Logger;
  /** Settings by plugin name, validated against each plugin's configSchema as the service does. */
  pluginConfig?: Readonly<Record<string, unknown>>;
  /** Ports the host provides before any plugin runs (an engine locator, a program lookup...). */
  provided?: ReadonlyArray<readonly [AnyCapabilityToken, unknown]>;
}

export interface TestKernel {
  /** Plugin names in the order they were set up. */
  readonly order: readonly string[];
  get<T>(capability: CapabilityToken<T, 'one'>): T;
  getAll<T>(capability: CapabilityToken<T, 'many'>): readonly T[];
  has(capability: AnyCapabilityToken): boolean;
  stop(): Promise<void>;
}

export function createKernel(options: TestKernelOptions): Promise<TestKernel> {
  return createCoreKernel({
    // The kit's shape is core's minus the tables (checked in plugin-definition.test.ts).
    plugins: options.plugins as readonly CorePluginDefinition[],
    logger: options.logger ?? silentLogger,
    ...(options.pluginConfig ? { pluginConfig: options.pluginConfig } : {}),
    ...(options.provided ? { provided: options.provided } : {}),
  });
}
