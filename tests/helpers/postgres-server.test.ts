// Self-test of the PostgreSQL helper: a fresh database answers queries, is isolated, and is gone after stop().
import { SQL } from 'bun';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { POSTGRES_SKIP_MESSAGE, startPostgresServer, type PostgresServer } from './postgres-server';

const server = await startPostgresServer();
if (server) {
  describeHelper(server);
} else {
  console.warn(`[postgres-server.test] skipped: ${POSTGRES_SKIP_MESSAGE}`);
  test.skip(`startPostgresServer: ${POSTGRES_SKIP_MESSAGE}`, () => {});
}

function describeHelper(pg: PostgresServer) {
  describe('startPostgresServer', () => {
    let sql: SQL;
    const dbName = (url: string) => new URL(url).pathname.slice(1);

    beforeAll(() => {
      sql = new SQL(pg.url);
    });

    afterAll(async () => {
      await sql?.close();
      await pg.stop();
    });

    test('runs select 1 on a fresh database of its own', async () => {
      const [row] = await sql`select 1 as one, current_database() as db`;
      expect(row.one).toBe(1);
      expect(row.db).toStartWith('lp_test_');
      expect(row.db).toBe(dbName(pg.url));
    });

    test('two servers never share a database, and stop() drops it', async () => {
      const other = await startPostgresServer();
      expect(other).not.toBeNull();
      const otherSql = new SQL(other!.url);
      try {
        await otherSql`create table probe (id int)`;
        const [{ db }] = await otherSql`select current_database() as db`;
        expect(db).not.toBe(dbName(pg.url));
        const [{ count }] = await sql`select count(*)::int as count from pg_tables where tablename = 'probe'`;
        expect(count).toBe(0);
      } finally {
        await otherSql.close();
        await other!.stop();
      }
      const [{ exists }] =
        await sql`select exists(select 1 from pg_database where datname = ${dbName(other!.url)}) as exists`;
      expect(exists).toBe(false);
      await other!.stop(); // idempotent
    });
  });
}
