/**
 * The backup file, format 1: plain SQL, one statement per line, that rebuilds the database in one transaction, with
 * what is not SQL in `--` comment lines (which psql ignores): a JSON header, the DATA_DIR files (base64) and, just
 * before COMMIT, the row count of every table, by which a restore knows the file is whole and loaded whole.
 */

export const BACKUP_FORMAT = 1;

export interface BackupHeader {
  format: number;
  created_at: string;
  loadplane_version: string;
  database: { kind: 'pglite' | 'postgresql'; server_version: string; schema: string };
  /** Migrations the database had run (MikroORM's table), oldest first: a restore refuses ones its release does not know. */
  migrations: string[];
  /** Paths under DATA_DIR carried in the file. */
  files: string[];
}

export interface BackupDataFile {
  path: string;
  base64: string;
}

export interface BackupEnd {
  rows: Record<string, number>;
}

const headerPrefix = '-- loadplane-backup: ';
const filePrefix = '-- loadplane-file: ';
const endPrefix = '-- loadplane-end: ';

export const BEGIN_LINE = 'BEGIN;';
export const COMMIT_LINE = 'COMMIT;';

/** What the reader of the file sees first, before the machine-read header. */
export function preamble(header: BackupHeader): string[] {
  const source = header.database.kind === 'pglite' ? 'embedded PGlite' : 'a PostgreSQL server';
  return [
    `-- Loadplane backup (format ${header.format}), made ${header.created_at} by loadplane ${header.loadplane_version}`,
    `-- from ${source} (PostgreSQL ${header.database.server_version}), schema ${header.database.schema}.`,
    '-- It holds every secret of the installation: password and token hashes, encrypted values AND the key that decrypts',
    '-- them. Keep it as you would keep that key: readable by its owner only, encrypted wherever it is stored.',
    '-- Restore: `loadplane restore FILE` into an empty DATA_DIR or database (docs/backup-and-upgrade.md). The database',
    '-- part is plain SQL too: `psql -v ON_ERROR_STOP=1 -f FILE` loads it into an empty PostgreSQL database.',
  ];
}

/**
 * The session settings the file's literals are written for (unambiguous dates, UTF-8, no backslash escapes in '...'),
 * and no server timeout cutting a long restore short (a role's default statement_timeout, say), as pg_dump sets them.
 */
export const sessionSettings = [
  'SET statement_timeout = 0;',
  'SET lock_timeout = 0;',
  'SET idle_in_transaction_session_timeout = 0;',
  "SET client_encoding = 'UTF8';",
  'SET standard_conforming_strings = on;',
  'SET check_function_bodies = false;',
  'SET client_min_messages = warning;',
  "SET datestyle = 'ISO, YMD';",
  "SET intervalstyle = 'postgres';",
  "SET timezone = 'UTC';",
];

export const headerLine = (header: BackupHeader) => `${headerPrefix}${JSON.stringify(header)}`;
export const fileLine = (file: BackupDataFile) => `${filePrefix}${JSON.stringify(file)}`;
export const endLine = (end: BackupEnd) => `${endPrefix}${JSON.stringify(end)}`;

export type BackupLine =
  | { kind: 'header'; header: BackupHeader }
  | { kind: 'file'; file: BackupDataFile }
  | { kind: 'end'; end: BackupEnd }
  | { kind: 'comment' }
  | { kind: 'sql'; text: string };

export function parseBackupLine(line: string): BackupLine {
  if (line.startsWith(headerPrefix)) return { kind: 'header', header: JSON.parse(line.slice(headerPrefix.length)) as BackupHeader };
  if (line.startsWith(filePrefix)) return { kind: 'file', file: JSON.parse(line.slice(filePrefix.length)) as BackupDataFile };
  if (line.startsWith(endPrefix)) return { kind: 'end', end: JSON.parse(line.slice(endPrefix.length)) as BackupEnd };
  if (line.startsWith('--') || line.trim() === '') return { kind: 'comment' };
  return { kind: 'sql', text: line };
}
