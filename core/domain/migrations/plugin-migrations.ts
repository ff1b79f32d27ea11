/**
 * Every plugin's migrations as the migrator takes them: its migration classes as they are, and its plain-SQL
 * migrations (the kit's form) made into classes, after checking their names so two plugins can never collide.
 */
import { Migration } from '@mikro-orm/migrations';
import type { MigrationClass, PluginDefinition } from '../../kernel/define-plugin.ts';
import { KernelBootError } from '../../kernel/errors.ts';
import type { SqlMigration } from '../../kernel/sql-migration.ts';

const namePattern = /^[a-z0-9][a-z0-9._-]*$/;

/** A class for one plain-SQL migration; `source` keys schema caches (a class's own text is the same for all of them). */
export function sqlMigrationClass(migration: SqlMigration): MigrationClass & { source: string } {
  const { name, statements } = migration;
  return class extends Migration {
    static source = JSON.stringify({ name, statements });
    override name = name;
    override up(): void {
      for (const statement of statements) this.addSql(statement);
    }
  };
}

function checkedSqlMigrations(plugin: PluginDefinition): readonly SqlMigration[] {
  const migrations = plugin.sqlMigrations ?? [];
  const seen = new Set<string>();
  for (const migration of migrations) {
    const where = `plugin ${plugin.name}: migration "${String(migration?.name)}"`;
    if (typeof migration?.name !== 'string' || !namePattern.test(migration.name) || !migration.name.startsWith(`${plugin.name}-`)) {
      throw new KernelBootError(`${where}: a name must start with "${plugin.name}-" and use lower-case letters, digits, ".", "_" or "-"`);
    }
    if (seen.has(migration.name)) throw new KernelBootError(`${where} is listed twice`);
    seen.add(migration.name);
    const statements: unknown = migration.statements;
    if (!Array.isArray(statements) || statements.length === 0 || !statements.every((s) => typeof s === 'string' && s.trim() !== '')) {
      throw new KernelBootError(`${where}: statements must be a non-empty list of SQL strings`);
    }
  }
  return migrations;
}

export function pluginMigrations(plugins: readonly PluginDefinition[]): MigrationClass[] {
  return plugins.flatMap((plugin) => [...(plugin.migrations ?? []), ...checkedSqlMigrations(plugin).map(sqlMigrationClass)]);
}
