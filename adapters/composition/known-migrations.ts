/**
 * The names of every migration this release can run: the core's, every built-in plugin's (both identity providers,
 * whichever one runs now: a database keeps the other's tables from an earlier setup) and the configured plugins'.
 * A restore refuses a backup that ran one outside this set (a newer release made it).
 */
import { coreMigrations } from '../../core/domain/migrations/index.ts';
import { pluginMigrations } from '../../core/domain/migrations/plugin-migrations.ts';
import type { MigrationClass } from '../../core/kernel/define-plugin.ts';
import { builtinPlugins, loadPluginsByName } from './plugins.ts';

export async function knownMigrationNames(extraPlugins: readonly string[]): Promise<Set<string>> {
  const plugins = await loadPluginsByName([...Object.keys(builtinPlugins), ...extraPlugins]);
  return new Set([...coreMigrations, ...pluginMigrations(plugins)].map(migrationName));
}

/** The name MikroORM records for a migration: its `name` field (set in the class body, so an instance is needed), else the class name. */
function migrationName(migration: MigrationClass): string {
  return new migration(undefined, undefined).name ?? migration.name;
}
