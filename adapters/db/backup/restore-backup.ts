/**
 * Restores a backup (backup-format.ts) into an empty database and DATA_DIR: the whole SQL in one transaction, checked
 * against the row counts the file ends with before COMMIT, then the DATA_DIR files. A refusal or a failure leaves the
 * target as it was; `force` drops what the target's schema holds, inside that same transaction.
 */
import { BACKUP_FORMAT, BEGIN_LINE, type BackupDataFile, type BackupEnd, type BackupHeader, COMMIT_LINE, parseBackupLine } from './backup-format.ts';
import { type DataDirFile, dataDirPath, existingDataDirFiles, writeDataDirFiles } from './data-dir-files.ts';
import { readLines } from './line-file.ts';
import { objectsInSchema } from './schema-catalog.ts';
import type { SqlSession } from './sql-session.ts';
import { quoteIdent } from './sql-text.ts';

/** The restore did not start: the file or the target is not what it must be. Nothing was changed. */
export class RestoreRefusedError extends Error {}

/** The database was restored (committed), but DATA_DIR's files could not all be written. */
export class FilesNotRestoredError extends Error {}

export interface RestoreOptions {
  session: SqlSession;
  dataDir: string;
  path: string;
  /** Replace what the target holds. */
  force: boolean;
}

export interface RestoreSummary {
  header: BackupHeader;
  tables: number;
  rows: number;
  files: string[];
}

/** About how much SQL goes to the server at once. */
const batchBytes = 4 * 1024 * 1024;

/**
 * The file's header and its DATA_DIR files, read before any database is opened; refuses what is no backup, a newer
 * format, or migrations this release does not know (a newer release's backup, or a plugin not loaded here).
 */
export async function readBackupHeader(path: string, knownMigrations: ReadonlySet<string>): Promise<{ header: BackupHeader; files: BackupDataFile[] }> {
  let header: BackupHeader | null = null;
  const files: BackupDataFile[] = [];
  try {
    for await (const line of readLines(path)) {
      const parsed = parseBackupLine(line);
      if (parsed.kind === 'header') header = parsed.header;
      else if (parsed.kind === 'file') files.push(parsed.file);
      else if (parsed.kind === 'sql') break;
    }
  } catch (error) {
    throw new RestoreRefusedError(`${path} cannot be read as a Loadplane backup: ${(error as Error).message}`);
  }
  if (!header) throw new RestoreRefusedError(`${path} is not a Loadplane backup (no "-- loadplane-backup:" header line)`);
  if (header.format > BACKUP_FORMAT) {
    throw new RestoreRefusedError(`${path} is a backup of format ${header.format}, newer than this release reads (${BACKUP_FORMAT}): restore it with a newer release`);
  }
  const unknown = header.migrations.filter((name) => !knownMigrations.has(name));
  if (unknown.length > 0) {
    throw new RestoreRefusedError(
      `the backup's database ran migrations this release does not have (${unknown.join(', ')}): it was made by a newer ` +
        `release (${header.loadplane_version}), or with a plugin not loaded here (LOADPLANE_PLUGINS); restore it with that release and plugins`,
    );
  }
  // A file path that would leave DATA_DIR (a crafted backup) is refused before anything is opened.
  for (const file of files) dataDirPath('/data-dir', file.path);
  return { header, files };
}

export async function restoreBackup(options: RestoreOptions, known: { header: BackupHeader; files: BackupDataFile[] }): Promise<RestoreSummary> {
  const { session } = options;
  const { header } = known;
  await refuseUnlessEmpty(options, header);

  let end: BackupEnd | null = null;
  let begun = false;
  let committed = false;
  let batch: string[] = [];
  let batchSize = 0;
  let lineNumber = 0;
  let batchStart = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const text = batch.join('\n');
    batch = [];
    batchSize = 0;
    try {
      await session.exec(text);
    } catch (error) {
      throw new Error(`the backup's SQL failed in lines ${batchStart}-${lineNumber}: ${(error as Error).message}`, { cause: error });
    }
  };
  try {
    for await (const line of readLines(options.path)) {
      lineNumber++;
      const parsed = parseBackupLine(line);
      if (parsed.kind === 'end') end = parsed.end;
      if (parsed.kind !== 'sql') continue;
      if (committed) throw new Error(`the backup goes on after COMMIT (line ${lineNumber}): it is not one this release wrote`);
      if (parsed.text === BEGIN_LINE) {
        await flush();
        await session.exec('BEGIN');
        begun = true;
        if (options.force) await dropSchemaObjects(session);
        continue;
      }
      if (parsed.text === COMMIT_LINE) {
        await flush();
        if (!begun || !end) throw new Error('the backup file is damaged: COMMIT without BEGIN or without its row counts');
        await checkRowCounts(session, end);
        await session.exec('COMMIT');
        committed = true;
        continue;
      }
      if (batch.length === 0) batchStart = lineNumber;
      batch.push(parsed.text);
      batchSize += parsed.text.length;
      if (batchSize >= batchBytes) await flush();
    }
    if (!committed) throw new Error('the backup file is incomplete (it ends before its COMMIT): was it cut short while copied?');
  } catch (error) {
    if (begun && !committed) await session.exec('ROLLBACK').catch(() => {});
    throw error;
  }

  const files: DataDirFile[] = known.files.map((file) => ({ path: file.path, content: Buffer.from(file.base64, 'base64') }));
  try {
    await writeDataDirFiles(options.dataDir, files);
  } catch (error) {
    throw new FilesNotRestoredError(
      `the database was restored, but the files of DATA_DIR ${options.dataDir} were not (${(error as Error).message}): ` +
        'the service still starts (its secrets are in the database); fix the cause and restore again with --force to have them',
      { cause: error },
    );
  }
  const rows = Object.values(end!.rows);
  return { header, tables: rows.length, rows: rows.reduce((sum, count) => sum + count, 0), files: files.map((file) => file.path) };
}

async function refuseUnlessEmpty(options: RestoreOptions, header: BackupHeader): Promise<void> {
  const { session } = options;
  const [{ schema }] = (await session.query<{ schema: string }>('select current_schema() as schema')) as [{ schema: string }];
  if (schema !== header.database.schema) {
    throw new RestoreRefusedError(`the backup is of schema "${header.database.schema}" but the target database's current schema is "${schema}"`);
  }
  if (session.kind === 'postgresql') {
    // Replicas still connected would see tables appear under them, or run migrations against the restore.
    const others = await session.query<{ who: string }>(
      `select coalesce(nullif(application_name, ''), 'a client') || coalesce(' from ' || host(client_addr), '') as who
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
    if (others.length > 0) {
      throw new RestoreRefusedError(
        `${others.length} other session(s) are connected to the target database (${[...new Set(others.map((o) => o.who))].join(', ')}): ` +
          'stop every replica of the service (and other clients) first',
      );
    }
  }
  if (options.force) return;
  const objects = await objectsInSchema(session);
  const files = await existingDataDirFiles(options.dataDir, header.files);
  const problems = [
    objects.length > 0 ? `the database is not empty (${objects.slice(0, 5).join(', ')}${objects.length > 5 ? `, and ${objects.length - 5} more` : ''})` : null,
    files.length > 0 ? `DATA_DIR ${options.dataDir} already holds ${files.join(', ')}` : null,
  ].filter((problem): problem is string => problem !== null);
  if (problems.length > 0) {
    throw new RestoreRefusedError(`${problems.join('; ')}. A restore goes into an empty database and DATA_DIR; --force replaces what they hold`);
  }
}

/** Everything in the current schema, dropped inside the restore's transaction (a failed restore keeps it). */
async function dropSchemaObjects(session: SqlSession): Promise<void> {
  const objects = await session.query<{ statement: string }>(
    `select 'DROP ' || case c.relkind when 'v' then 'VIEW' when 'm' then 'MATERIALIZED VIEW' when 'f' then 'FOREIGN TABLE'
                                      when 'S' then 'SEQUENCE' else 'TABLE' end || ' IF EXISTS ' || quote_ident(c.relname) || ' CASCADE' as statement
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
        and not exists (select 1 from pg_depend e where e.objid = c.oid and e.deptype = 'e')
     union all
     select 'DROP ROUTINE IF EXISTS ' || p.oid::regprocedure::text || ' CASCADE'
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = current_schema() and not exists (select 1 from pg_depend e where e.objid = p.oid and e.deptype = 'e')
     union all
     select 'DROP TYPE IF EXISTS ' || quote_ident(t.typname) || ' CASCADE'
       from pg_type t join pg_namespace n on n.oid = t.typnamespace
      where n.nspname = current_schema() and t.typtype in ('e', 'd', 'r', 'm')
        and not exists (select 1 from pg_depend e where e.objid = t.oid and e.deptype = 'e')`,
  );
  for (const { statement } of objects) await session.exec(statement);
}

async function checkRowCounts(session: SqlSession, end: BackupEnd): Promise<void> {
  for (const [table, expected] of Object.entries(end.rows)) {
    const [{ count }] = (await session.query<{ count: string }>(`select count(*)::text as count from ${quoteIdent(table)}`)) as [{ count: string }];
    if (Number(count) !== expected) throw new Error(`table ${table} holds ${count} rows after the restore, the backup has ${expected}: nothing was restored`);
  }
}
