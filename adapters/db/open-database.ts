/** Opens the ORM on PGlite (embedded, files under DATA_DIR) or a PostgreSQL server, and applies every migration. */
import type { EntitySchema } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import type { MigrationClass } from '../../core/kernel/define-plugin.ts';
import type { Database } from '../../core/ports/database.ts';

export interface OpenDatabaseOptions {
  /** `postgres://...` for a server; unset for PGlite. */
  databaseUrl?: string;
  /** PGlite's directory; `memory://` keeps everything in memory (tests). */
  pgliteDir?: string;
  entities: readonly EntitySchema[];
  migrations: readonly MigrationClass[];
  debug?: boolean;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database & { close(): Promise<void> }> {
  const common = {
    entities: [...options.entities],
    extensions: [Migrator],
    migrations: { migrationsList: [...options.migrations], transactional: true, silent: true, snapshot: false },
    debug: options.debug ?? false,
    // We map rows to API views ourselves; skip MikroORM's discovery warnings about unused metadata.
    discovery: { warnWhenNoEntities: false },
  };
  const orm = options.databaseUrl
    ? await PostgresORM.init({ ...common, clientUrl: options.databaseUrl, pool: { min: 1, max: 10 } })
    : options.pgliteDir === undefined || options.pgliteDir === 'memory://'
      ? await PgliteORM.init({ ...common, dbName: 'memory://' })
      : await PgliteORM.init({ ...common, dbName: 'loadplane', driverOptions: { dataDir: options.pgliteDir } });
  await orm.migrator.up();
  return {
    orm,
    kind: options.databaseUrl ? 'postgresql' : 'pglite',
    fork: () => orm.em.fork(),
    close: () => orm.close(true),
  };
}
