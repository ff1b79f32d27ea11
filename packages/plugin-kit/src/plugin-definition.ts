/**
 * The kit's plugin shape: core's PluginDefinition and PluginContext minus what the kit does not hand out (ORM entities
 * and MikroORM migration classes: the kit's plugins migrate with plain SQL), declared here so the published types need
 * no database library. The kernel accepts it as is.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { AnyCapabilityToken, CapabilityToken, Resolved } from '../../../core/kernel/define-capability.ts';
import type { HookBus } from '../../../core/kernel/hook-bus.ts';
import type { KernelHooks } from '../../../core/kernel/hooks.ts';
import type { Logger } from '../../../core/kernel/logger.ts';
import type { SqlMigration } from '../../../core/kernel/sql-migration.ts';

export interface PluginContext<Config = unknown> {
  /** This plugin's validated, frozen settings (its `configSchema`, filled from LOADPLANE_PLUGIN_<NAME>_<KEY> or LOADPLANE_CONFIG). */
  readonly config: Config;
  readonly logger: Logger;
  readonly hooks: HookBus<KernelHooks>;
  /** Aborted when the kernel stops. */
  readonly signal: AbortSignal;
  provide<T>(capability: CapabilityToken<T>, implementation: T): void;
  /** A capability or port; throws if a 'one' capability has no provider yet (declare it in dependsOn). */
  use<Token extends AnyCapabilityToken>(capability: Token): Resolved<Token>;
  /** Whether anything provides the capability yet (agents and the control plane provide different ports). */
  has(capability: AnyCapabilityToken): boolean;
  /** Runs at stop, in reverse boot order. */
  onStop(teardown: () => void | Promise<void>): void;
}

export interface PluginDefinition<Schema extends TSchema = TSchema> {
  /** kebab-case, unique; a published plugin uses its package name. */
  readonly name: string;
  readonly dependsOn?: readonly string[];
  /**
   * Migrations of the plugin's own tables, in order: each `name` starts with the plugin's name and a dash and never
   * changes once shipped; the service runs each once per database, after core's, in one transaction (agents skip them).
   */
  readonly sqlMigrations?: readonly SqlMigration[];
  /** A TypeBox schema of the plugin's settings (`Type` from this kit); defaults fill what the operator leaves unset. */
  readonly configSchema?: Schema;
  setup(context: PluginContext<Static<Schema>>): void | Promise<void>;
}

/** A plugin, frozen; what a plugin package default-exports. */
export function definePlugin<Schema extends TSchema = TSchema>(definition: PluginDefinition<Schema>): PluginDefinition<Schema> {
  // What core's definePlugin does; the kernel checks name and setup when it loads the package.
  return Object.freeze(definition);
}
