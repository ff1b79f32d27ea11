/** Opens the ORM on PGlite (embedded, files under DATA_DIR) or a PostgreSQL server, and applies every migration. */
import type { EntitySchema } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import { type Kysely, sql } from 'kysely';
import type { MigrationClass } from '../../core/kernel/define-plugin.ts';
import type { Database } from '../../core/ports/database.ts';
import { ownerOnlyTree } from '../files/owner-only-tree.ts';
import { closeWithin } from './bounded-close.ts';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultTemplateDir, dropTemplate, isFreshCluster, readTemplate, saveTemplate, type TemplateTarball, templatePath } from './pglite-template.ts';

export interface OpenDatabaseOptions {
  /** `postgres://...` for a server; unset for PGlite. */
  databaseUrl?: string;
  /** PGlite's directory; `memory://` keeps everything in memory (tests). */
  pgliteDir?: string;
  entities: readonly EntitySchema[];
  migrations: readonly MigrationClass[];
  debug?: boolean;
  /** Where prepared PGlite clusters are kept (pglite-template.ts); null: always initdb and migrate from scratch. */
  pgliteTemplateDir?: string | null;
  /** Told when closing a PostgreSQL pool outlasts its deadline (queries still in flight); default: stderr. */
  warn?: (message: string, fields: Record<string, unknown>) => void;
}

/** How long a stop waits for PostgreSQL queries in flight before it closes without them. */
const closeDeadlineMs = 10_000;

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
  if (options.databaseUrl) {
    const orm = await PostgresORM.init({ ...common, clientUrl: options.databaseUrl, pool: { min: 1, max: 10 } });
    await migrateOneAtATime(orm);
    const databaseUrl = options.databaseUrl;
    const warn = options.warn ?? ((message: string, fields: Record<string, unknown>) => console.error(`warning: ${message}`, JSON.stringify(fields)));
    return { ...wrap(orm, 'postgresql'), close: () => closeWithin(() => orm.close(true), { databaseUrl, deadlineMs: closeDeadlineMs, warn }) };
  }
  const dataDir = options.pgliteDir ?? 'memory://';
  const inMemory = dataDir === 'memory://';
  // On disk the cluster lives in dataDir and `loadplane` is a database in it; in memory the cluster is the database.
  const dbName = inMemory ? 'memory://' : 'loadplane';
  const templateDir = options.pgliteTemplateDir === undefined ? defaultTemplateDir : options.pgliteTemplateDir;
  const template = templateDir && isFreshCluster(dataDir) ? templatePath(templateDir, dbName, options.migrations) : null;
  let prepared = template ? await readTemplate(template) : null;
  let orm: PgliteORM;
  try {
    orm = await openPglite(common, dbName, inMemory ? null : dataDir, prepared);
  } catch (error) {
    if (!prepared || !template) throw error;
    // A template PGlite cannot load (corrupt, or cut short): forget it and make the cluster the slow way.
    await dropTemplate(template);
    if (!inMemory) await emptyDirectory(dataDir);
    prepared = null;
    orm = await openPglite(common, dbName, inMemory ? null : dataDir, null);
  }
  if (template && !prepared) {
    const pglite = (await orm.em.getConnection().getNativeClient()) as { dumpDataDir(compression: 'gzip'): Promise<Blob | File> };
    await saveTemplate(template, () => pglite.dumpDataDir('gzip'));
  }
  // Files PGlite wrote while opening get the umask's mode: mend them too (later ones sit behind 0700 directories).
  if (pgliteOnDisk) await ownerOnlyTree(options.pgliteDir!);
  return wrap(orm, 'pglite');
}

/** PGlite opened and migrated, from a prepared cluster when one is given; a failed open is closed before it throws. */
async function openPglite(common: object, dbName: string, dataDir: string | null, prepared: TemplateTarball | null): Promise<PgliteORM> {
  const driverOptions = { ...(dataDir ? { dataDir } : {}), ...(prepared ? { loadDataDir: prepared } : {}) };
  const orm = await PgliteORM.init({ ...common, dbName, driverOptions });
  try {
    await orm.migrator.up();
    return orm;
  } catch (error) {
    await orm.close(true).catch(() => {});
    throw error;
  }
}

/** A fresh directory's partial contents (a failed template load), removed while the directory itself stays (0700). */
async function emptyDirectory(dir: string): Promise<void> {
  for (const name of await readdir(dir)) await rm(join(dir, name), { recursive: true, force: true });
}

function wrap(orm: PgliteORM | PostgresORM, kind: Database['kind']): Database & { close(): Promise<void> } {
  return { orm, kind, fork: () => orm.em.fork(), close: () => orm.close(true) };
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
