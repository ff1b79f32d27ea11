/** Plugin definitions: metadata the kernel checks before any setup runs, and the context each setup receives. */
import type { EntitySchema } from '@mikro-orm/core';
import type { Migration } from '@mikro-orm/migrations';
import type { Static, TSchema } from '@sinclair/typebox';
import type { AnyCapabilityToken, CapabilityToken, Resolved } from './define-capability.ts';
import type { HookBus } from './hook-bus.ts';
import type { KernelHooks } from './hooks.ts';
import type { Logger } from './logger.ts';
import type { SqlMigration } from './sql-migration.ts';

export interface PluginContext<Config = unknown> {
  /** This plugin's validated, frozen slice of the configuration. */
  readonly config: Config;
  readonly logger: Logger;
  readonly hooks: HookBus<KernelHooks>;
  /** Aborted when the kernel stops. */
  readonly signal: AbortSignal;
  provide<T>(capability: CapabilityToken<T>, implementation: T): void;
  /** A capability or port; throws if a 'one' capability has no provider yet (declare it in dependsOn). */
  use<Token extends AnyCapabilityToken>(capability: Token): Resolved<Token>;
  /** Whether anything provides the capability yet. */
  has(capability: AnyCapabilityToken): boolean;
  /** Runs at stop, in reverse boot order. */
  onStop(teardown: () => void | Promise<void>): void;
}

export interface PluginDefinition<Schema extends TSchema = TSchema> {
  /** MikroORM entity schemas this plugin owns (its own tables). */
  readonly entities?: readonly EntitySchema[];
  /** Migration classes for those tables, applied in order after the core migrations. */
  readonly migrations?: readonly MigrationClass[];
  /** Plain-SQL migrations for its own tables (the published kit's form), applied in order after `migrations`. */
  readonly sqlMigrations?: readonly SqlMigration[];
  /** kebab-case, unique; third-party plugins use their package name. */
  readonly name: string;
  readonly dependsOn?: readonly string[];
  readonly configSchema?: Schema;
  setup(context: PluginContext<Static<Schema>>): void | Promise<void>;
}

export function definePlugin<Schema extends TSchema = TSchema>(
  definition: PluginDefinition<Schema>,
): PluginDefinition<Schema> {
  return Object.freeze(definition);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- MikroORM constructs migrations with (driver, config).
export type MigrationClass = new (...args: any[]) => Migration;
