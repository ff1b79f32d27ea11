/**
 * Writes a backup (backup-format.ts) through one database connection: the schema from the catalog and every row, all
 * read in one REPEATABLE READ transaction, so a backup of a running PostgreSQL service is one consistent snapshot; then
 * the DATA_DIR files. No pg_dump needed, and the same code serves PGlite and PostgreSQL.
 */
import {
  BACKUP_FORMAT,
  BEGIN_LINE,
  type BackupHeader,
  COMMIT_LINE,
  endLine,
  fileLine,
  headerLine,
  preamble,
  sessionSettings,
} from './backup-format.ts';
import { collectDataDirFiles } from './data-dir-files.ts';
import { createLineWriter, type LineWriter } from './line-file.ts';
import { readSchemaCatalog, type Table } from './schema-catalog.ts';
import { schemaAfterData, schemaBeforeData } from './schema-ddl.ts';
import type { SqlSession } from './sql-session.ts';
import { quoteIdent, quoteLiteral } from './sql-text.ts';

export interface BackupOptions {
  session: SqlSession;
  /** Its files besides the database go into the backup. */
  dataDir: string;
  /** The file to write (gzip when it ends in `.gz`); must not exist. */
  path: string;
  loadplaneVersion: string;
}

export interface BackupSummary {
  tables: number;
  rows: number;
  files: string[];
  migrations: number;
}

/** Rows per INSERT statement, and about how long one may get: big enough to load fast, small enough to read. */
const rowsPerInsert = 500;
const bytesPerInsert = 1024 * 1024;

/** MikroORM's record of the migrations run (its default table name). */
const migrationsTable = 'mikro_orm_migrations';

export async function writeBackup(options: BackupOptions): Promise<BackupSummary> {
  const { session } = options;
  await session.exec('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
  try {
    // Text forms that read back the same anywhere: ISO dates in UTC, every float digit, hex bytea. No timeout: the
    // snapshot stays open as long as the rows take to read.
    await session.exec(
      "SET LOCAL datestyle = 'ISO, YMD'; SET LOCAL intervalstyle = 'postgres'; SET LOCAL timezone = 'UTC'; " +
        "SET LOCAL extra_float_digits = 3; SET LOCAL bytea_output = 'hex'; SET LOCAL statement_timeout = 0; " +
        'SET LOCAL idle_in_transaction_session_timeout = 0',
    );
    const catalog = await readSchemaCatalog(session);
    const [{ version }] = (await session.query<{ version: string }>("select current_setting('server_version') as version")) as [{ version: string }];
    const migrations = catalog.tables.some((table) => table.name === migrationsTable)
      ? (await session.query<{ name: string }>(`select name from ${quoteIdent(migrationsTable)} order by id`)).map((row) => row.name)
      : [];
    const files = await collectDataDirFiles(options.dataDir);
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      created_at: new Date().toISOString(),
      loadplane_version: options.loadplaneVersion,
      database: { kind: session.kind, server_version: (version ?? '').split(' ')[0] ?? '', schema: catalog.schema },
      migrations,
      files: files.map((file) => file.path),
    };

    const out = await createLineWriter(options.path);
    try {
      for (const line of preamble(header)) await out.write(line);
      await out.write(headerLine(header));
      for (const file of files) await out.write(fileLine({ path: file.path, base64: file.content.toString('base64') }));
      for (const line of sessionSettings) await out.write(line);
      await out.write(BEGIN_LINE);
      for (const statement of schemaBeforeData(catalog)) await out.write(statement);
      const rows: Record<string, number> = {};
      for (const table of catalog.tables) rows[table.name] = await writeRows(session, table, out);
      const positions = new Map<string, { lastValue: string; isCalled: boolean }>();
      for (const sequence of catalog.sequences) {
        const [position] = await session.query<{ lastValue: string; isCalled: boolean }>(
          `select last_value::text as "lastValue", is_called as "isCalled" from ${quoteIdent(sequence.name)}`,
        );
        if (position) positions.set(sequence.name, position);
      }
      for (const statement of schemaAfterData(catalog, positions)) await out.write(statement);
      await out.write(endLine({ rows }));
      await out.write(COMMIT_LINE);
      await out.finish();
      return {
        tables: catalog.tables.length,
        rows: Object.values(rows).reduce((sum, count) => sum + count, 0),
        files: header.files,
        migrations: migrations.length,
      };
    } catch (error) {
      await out.abort();
      throw error;
    }
  } finally {
    await session.exec('ROLLBACK').catch(() => {});
  }
}

/** The table's rows as multi-row INSERTs of text literals (PostgreSQL's own text form of each value, which it reads back). */
async function writeRows(session: SqlSession, table: Table, out: LineWriter): Promise<number> {
  const columns = table.columns.filter((column) => !column.generated);
  const order = table.primaryKey.length > 0 ? ` ORDER BY ${table.primaryKey.map(quoteIdent).join(', ')}` : '';
  const select = `SELECT ${columns.map((column, i) => `${quoteIdent(column.name)}::text AS c${i}`).join(', ')} FROM ${quoteIdent(table.name)}${order}`;
  const overriding = columns.some((column) => column.identity === 'a') ? ' OVERRIDING SYSTEM VALUE' : '';
  const insert = `INSERT INTO ${quoteIdent(table.name)} (${columns.map((column) => quoteIdent(column.name)).join(', ')})${overriding} VALUES `;
  let count = 0;
  let tuples: string[] = [];
  let size = 0;
  const flush = async () => {
    if (tuples.length === 0) return;
    await out.write(`${insert}${tuples.join(', ')};`);
    tuples = [];
    size = 0;
  };
  // A cursor: the table is read in pages, never held whole (run logs can be large).
  await session.exec(`DECLARE loadplane_backup_rows NO SCROLL CURSOR FOR ${select}`);
  for (;;) {
    const page = await session.query<Record<string, string | null>>(`FETCH FORWARD ${rowsPerInsert} FROM loadplane_backup_rows`);
    if (page.length === 0) break;
    for (const row of page) {
      const tuple = `(${columns.map((_, i) => (row[`c${i}`] === null || row[`c${i}`] === undefined ? 'NULL' : quoteLiteral(row[`c${i}`]!))).join(', ')})`;
      tuples.push(tuple);
      size += tuple.length;
      count++;
      if (tuples.length >= rowsPerInsert || size >= bytesPerInsert) await flush();
    }
  }
  await session.exec('CLOSE loadplane_backup_rows');
  await flush();
  return count;
}
