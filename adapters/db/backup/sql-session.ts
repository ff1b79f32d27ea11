/**
 * One connection to the service's database for backup and restore, opened WITHOUT migrations (a backup of an older
 * release's database must stay as that release left it): embedded PGlite through the same driver the service uses, or
 * a PostgreSQL server through one `pg` client (a transaction and its snapshot live on one connection, not a pool).
 */
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import pg from 'pg';
import { ownerOnlyTree } from '../../files/owner-only-tree.ts';

export interface SqlSession {
  kind: 'pglite' | 'postgresql';
  /** One statement with `$1` parameters; rows as objects. */
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Several statements in one round trip (the simple query protocol). */
  exec(text: string): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseTarget = { databaseUrl: string } | { pgliteDir: string };

/**
 * The database inside the PGlite cluster under DATA_DIR/pglite: open-database.ts opens the cluster in MikroORM's
 * named-database mode with this name, and so do we.
 */
const pgliteDatabaseName = 'loadplane';

interface PgliteClient {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(text: string): Promise<unknown>;
}

export async function openSqlSession(target: DatabaseTarget): Promise<SqlSession> {
  if ('databaseUrl' in target) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    // A server that ends the connection (restart, admin) must fail the current query, not the process.
    client.on('error', () => {});
    await client.connect();
    return {
      kind: 'postgresql',
      query: async <T>(text: string, params?: readonly unknown[]) => (await client.query(text, params ? [...params] : undefined)).rows as T[],
      exec: async (text) => {
        await client.query(text);
      },
      close: () => client.end(),
    };
  }
  // Opening creates the cluster and its database when the directory is new (a restore's target): owner-only, as the
  // service keeps it (PGlite writes with the umask).
  await ownerOnlyTree(target.pgliteDir);
  const orm = await PgliteORM.init({
    dbName: pgliteDatabaseName,
    driverOptions: { dataDir: target.pgliteDir },
    entities: [],
    discovery: { warnWhenNoEntities: false },
  });
  const client = (await orm.em.getConnection().getNativeClient()) as unknown as PgliteClient;
  return {
    kind: 'pglite',
    query: async <T>(text: string, params?: readonly unknown[]) => (await client.query<T>(text, params ? [...params] : undefined)).rows,
    exec: async (text) => {
      await client.exec(text);
    },
    async close() {
      await orm.close(true);
      await ownerOnlyTree(target.pgliteDir);
    },
  };
}
