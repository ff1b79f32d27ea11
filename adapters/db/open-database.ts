/** Opens the ORM on PGlite (embedded, files under DATA_DIR) or a PostgreSQL server, and applies every migration. */
import type { EntitySchema } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import { type Kysely, sql } from 'kysely';
import type { MigrationClass } from '../../core/kernel/define-plugin.ts';
import type { Database } from '../../core/ports/database.ts';
import { ownerOnlyTree } from '../files/owner-only-tree.ts';

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
  const pgliteOnDisk = !options.databaseUrl && options.pgliteDir !== undefined && options.pgliteDir !== 'memory://';
  // Created owner-only before PGlite writes anything into it; an older installation's files are tightened too.
  if (pgliteOnDisk) await ownerOnlyTree(options.pgliteDir!);
  const orm = options.databaseUrl
    ? await PostgresORM.init({ ...common, clientUrl: options.databaseUrl, pool: { min: 1, max: 10 } })
    : options.pgliteDir === undefined || options.pgliteDir === 'memory://'
      ? await PgliteORM.init({ ...common, dbName: 'memory://' })
      : await PgliteORM.init({ ...common, dbName: 'loadplane', driverOptions: { dataDir: options.pgliteDir } });
  if (options.databaseUrl) await migrateOneAtATime(orm);
  else await orm.migrator.up();
  // Files PGlite wrote while opening get the umask's mode: mend them too (later ones sit behind 0700 directories).
  if (pgliteOnDisk) await ownerOnlyTree(options.pgliteDir!);
  return {
    orm,
    kind: options.databaseUrl ? 'postgresql' : 'pglite',
    fork: () => orm.em.fork(),
    close: () => orm.close(true),
  };
}

/**
 * Replicas that start together on a fresh PostgreSQL database would each apply 0001 and one would fail (duplicate
 * table): a session advisory lock, held on a connection of its own, lets one replica migrate while the others wait
 * and then find nothing left to apply.
 */
async function migrateOneAtATime(orm: { em: object; migrator: { up(): Promise<unknown> } }): Promise<void> {
  const kysely = (orm.em as unknown as { getKysely(): Kysely<unknown> }).getKysely();
  await kysely.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext('loadplane:migrations'))`.execute(connection);
    try {
      await orm.migrator.up();
    } finally {
      await sql`select pg_advisory_unlock(hashtext('loadplane:migrations'))`.execute(connection);
    }
  });
}
