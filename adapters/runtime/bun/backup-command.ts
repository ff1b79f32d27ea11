/**
 * `loadplane backup FILE` and `loadplane restore FILE`: the service's database (embedded PGlite under DATA_DIR, or
 * DATABASE_URL) and the files of DATA_DIR, to and from one file (adapters/db/backup/). They read DATA_DIR and
 * DATABASE_URL as the service does.
 */
import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../../config/load-config.ts';
import type { Config } from '../../../config/schema.ts';
import { agentVersion } from '../../agent/start-node-agent.ts';
import { knownMigrationNames } from '../../composition/known-migrations.ts';
import { FilesNotRestoredError, readBackupHeader, restoreBackup } from '../../db/backup/restore-backup.ts';
import { openSqlSession, type SqlSession } from '../../db/backup/sql-session.ts';
import { writeBackup } from '../../db/backup/write-backup.ts';
import { lockPglite } from '../../db/pglite-lock.ts';

export const backupUsage = `usage: loadplane backup FILE [--force]
       loadplane restore FILE [--force]
  (in the repository: npm run --silent loadplane -- backup FILE)

  backup   writes the service's database and the files of DATA_DIR to FILE (gzip when it ends in .gz): plain SQL,
           one consistent snapshot. On a PostgreSQL server (DATABASE_URL) it runs beside the service; the embedded
           database (PGlite, DATA_DIR/pglite) serves one process, so stop the service first. FILE is created readable
           by you only (0600): it holds every secret of the installation and the key that decrypts them.
  restore  loads FILE into an empty database and DATA_DIR, in one transaction; then start the service, which
           applies the migrations of this release if the backup is older. Stop the service (every replica) first.
  --force  backup: overwrite FILE; restore: replace what the database and DATA_DIR hold

  The database and DATA_DIR come from DATABASE_URL and DATA_DIR, as for the service. SECRET_KEY, when you set it, is
  not in the backup: the restored service needs the same value. docs/backup-and-upgrade.md says more.`;

function usageError(message: string): never {
  console.error(`loadplane: ${message}\n\n${backupUsage}`);
  process.exit(2);
}

function fail(command: string, message: string): never {
  console.error(`loadplane ${command}: ${message}`);
  process.exit(1);
}

function parse(command: string, argv: readonly string[], env: Record<string, string | undefined>): { file: string; force: boolean; config: Readonly<Config> } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
  } catch (error) {
    usageError((error as Error).message);
  }
  if (parsed.values.help) {
    console.log(backupUsage);
    process.exit(0);
  }
  if (parsed.positionals.length !== 1) usageError(`${command} takes one FILE`);
  try {
    return { file: resolve(parsed.positionals[0]!), force: parsed.values.force ?? false, config: loadConfig(env) };
  } catch (error) {
    if (error instanceof ConfigError) fail(command, `configuration error: ${error.message}`);
    throw error;
  }
}

const describeTarget = (config: Readonly<Config>) =>
  config.databaseUrl ? 'the PostgreSQL database of DATABASE_URL' : `the embedded database in ${join(config.dataDir, 'pglite')}`;

/** A session on the configured database; on PGlite with its lock held for `what`, released on close. */
async function openTarget(config: Readonly<Config>, what: string): Promise<SqlSession> {
  if (config.databaseUrl) return openSqlSession({ databaseUrl: config.databaseUrl });
  const pgliteDir = join(config.dataDir, 'pglite');
  const release = lockPglite(pgliteDir, what);
  try {
    const session = await openSqlSession({ pgliteDir });
    return {
      ...session,
      async close() {
        try {
          await session.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** Refusals (a database in use, a target not empty, a schema not covered) and failures alike: the message says it. */
const explain = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function runBackupCommand(argv: readonly string[], env: Record<string, string | undefined>): Promise<void> {
  const { file, force, config } = parse('backup', argv, env);
  if (existsSync(file) && !force) fail('backup', `${file} exists; choose another name, or --force to overwrite it`);
  // Every later backup would carry it along: backups take DATA_DIR's files.
  if (file.startsWith(resolve(config.dataDir) + sep)) fail('backup', `${file} is inside DATA_DIR (${config.dataDir}): write the backup elsewhere`);
  if (!config.databaseUrl && !existsSync(join(config.dataDir, 'pglite'))) {
    fail('backup', `there is no embedded database in ${join(config.dataDir, 'pglite')}: is DATA_DIR right (or DATABASE_URL unset)?`);
  }
  let summary;
  try {
    const session = await openTarget(config, 'loadplane backup');
    try {
      summary = await writeBackup({ session, dataDir: config.dataDir, path: file, loadplaneVersion: agentVersion });
    } finally {
      await session.close();
    }
  } catch (error) {
    fail('backup', `${describeTarget(config)} was not backed up: ${explain(error)}`);
  }
  console.log(
    `loadplane backup: ${describeTarget(config)} and DATA_DIR are in ${file}: ${summary.tables} tables, ${summary.rows} rows, ` +
      `${summary.files.length} files of DATA_DIR (${summary.files.join(', ') || 'none'}).\n` +
      'It holds every secret of this installation, the key that decrypts them included: it is readable by you only (mode 600); ' +
      'keep it that way, and encrypted wherever you store it.',
  );
  if (config.secretKey) {
    console.error('loadplane backup: SECRET_KEY is set in the environment, so the backup does not hold it: keep it with the backup, the restored service needs the same value.');
  }
}

export async function runRestoreCommand(argv: readonly string[], env: Record<string, string | undefined>): Promise<void> {
  const { file, force, config } = parse('restore', argv, env);
  if (!existsSync(file)) fail('restore', `${file} does not exist`);
  let summary;
  try {
    const known = await readBackupHeader(file, await knownMigrationNames(config.plugins));
    const session = await openTarget(config, 'loadplane restore');
    try {
      summary = await restoreBackup({ session, dataDir: config.dataDir, path: file, force }, known);
    } finally {
      await session.close();
    }
  } catch (error) {
    fail('restore', error instanceof FilesNotRestoredError ? error.message : `nothing was restored into ${describeTarget(config)}: ${explain(error)}`);
  }
  const { header } = summary;
  console.log(
    `loadplane restore: ${summary.tables} tables, ${summary.rows} rows and ${summary.files.length} files of DATA_DIR restored from ${file} ` +
      `(made ${header.created_at} by loadplane ${header.loadplane_version} from ${header.database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}) ` +
      `into ${describeTarget(config)}. Start the service: it applies this release's migrations that the backup has not run yet.`,
  );
}
