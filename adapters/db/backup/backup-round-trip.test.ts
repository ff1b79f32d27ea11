/**
 * Backup and restore on embedded PGlite, in process, with the awkward cases a schema and its rows can hold: quotes,
 * backslashes and line breaks in text, JSON, arrays, bytea, special floats, identity and serial columns (their sequences
 * continue where they stood), generated columns, partial and expression indexes, checks, foreign keys, a trigger
 * function with a `--` comment, odd identifiers; Agenda's table left out. Also what the restore refuses (a target that
 * is not empty, a file cut short, migrations from a newer release, a file path leaving DATA_DIR), each leaving the
 * target as it was.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataDirPath } from './data-dir-files.ts';
import { readBackupHeader, restoreBackup, RestoreRefusedError } from './restore-backup.ts';
import { objectsInSchema } from './schema-catalog.ts';
import { openSqlSession, type SqlSession } from './sql-session.ts';
import { writeBackup } from './write-backup.ts';

let root: string;
const sessions: SqlSession[] = [];
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'lp-backup-unit-'));
});
afterAll(async () => {
  for (const session of sessions) await session.close().catch(() => {});
  await rm(root, { recursive: true, force: true });
});

async function session(name: string): Promise<SqlSession> {
  const opened = await openSqlSession({ pgliteDir: join(root, name, 'pglite') });
  sessions.push(opened);
  return opened;
}

const awkward = ["it's", 'back\\slash \\n not a newline', 'two\nlines\r\nand a tab\there', 'unicode: żółw 🐢 \u2028 sep', '$$ dollar $x$', "E'not an escape'"];

const schema = `
  create table workspaces (id uuid primary key, name text not null check (length(name) > 0));
  create table "Odd ""Name""" (
    id bigint generated always as identity primary key,
    serial_id bigserial,
    workspace_id uuid references workspaces (id) on delete cascade,
    "select" text,
    doc jsonb not null default '{}'::jsonb,
    tags text[],
    raw bytea,
    ratio double precision,
    amount numeric(30, 10),
    at timestamptz default now(),
    span interval,
    shouted text generated always as (upper("select")) stored
  );
  create unique index odd_select on "Odd ""Name""" (lower("select")) where "select" is not null;
  create table counters (workspace_id uuid primary key references workspaces (id), deleted int not null default 0);
  create function count_delete() returns trigger language plpgsql as $$
    begin
      -- a comment: joined onto one line, it would swallow the rest of the body
      update counters set deleted = deleted + 1 where workspace_id = old.workspace_id;
      return old;
    end $$;
  create trigger odd_deleted after delete on "Odd ""Name""" for each row execute function count_delete();
  create table mikro_orm_migrations (id serial primary key, name varchar(255) not null, executed_at timestamptz default now());
  insert into mikro_orm_migrations (name) values ('core-0001-foundation');
  create table agenda_jobs (id serial primary key, name text);
  insert into agenda_jobs (name) values ('left out');
`;

const rowsOf = async (db: SqlSession, table: string) =>
  (await db.query<{ row: string }>(`select row_to_json(t)::text as row from ${table} t order by 1`)).map((r) => r.row);

let source: SqlSession;
let backupFile: string;
const sourceDataDir = () => join(root, 'source');

beforeAll(async () => {
  source = await session('source');
  await source.exec(schema);
  await source.exec(`insert into workspaces values ('00000000-0000-4000-8000-000000000001', 'one'), ('00000000-0000-4000-8000-000000000002', 'two')`);
  await source.exec(`insert into counters values ('00000000-0000-4000-8000-000000000001', 0)`);
  for (const [i, text] of awkward.entries()) {
    await source.query(
      `insert into "Odd ""Name""" (workspace_id, "select", doc, tags, raw, ratio, amount, span) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        '00000000-0000-4000-8000-000000000001',
        text,
        JSON.stringify({ text, nested: { list: [1, 'two', null] } }),
        [text, 'plain', '{braces}', 'with,comma', '"quoted"'],
        new Uint8Array([0, 10, 13, 39, 92, 255, i]),
        [0.1, 1e-300, Number.NaN, Number.POSITIVE_INFINITY, -0, 123456789.12345679][i],
        '12345678901234567890.0123456789',
        '1 day 02:03:04.5',
      ],
    );
  }
  // A row deleted: the trigger counts it, and the identity sequences stand past the rows that remain.
  await source.exec(`delete from "Odd ""Name""" where "select" = 'it''s'`);
  await writeFile(join(sourceDataDir(), 'secret-key'), 'key material\n');
  await writeFile(join(sourceDataDir(), 'pglite.lock'), '{}');
  backupFile = join(root, 'backup.sql.gz');
  const summary = await writeBackup({ session: source, dataDir: sourceDataDir(), path: backupFile, loadplaneVersion: 'test' });
  expect(summary).toMatchObject({ tables: 4, rows: 2 + 1 + awkward.length - 1 + 1, files: ['secret-key'], migrations: 1 });
});

describe('a backup restored', () => {
  let target: SqlSession;
  const targetDir = () => join(root, 'target');

  beforeAll(async () => {
    target = await session('target');
    const known = await readBackupHeader(backupFile, new Set(['core-0001-foundation']));
    await restoreBackup({ session: target, dataDir: targetDir(), path: backupFile, force: false }, known);
  });

  test('has every row as it was, byte for byte, and the file is owner-only', async () => {
    for (const table of ['workspaces', '"Odd ""Name"""', 'counters', 'mikro_orm_migrations']) {
      expect(await rowsOf(target, table)).toEqual(await rowsOf(source, table));
    }
    expect((await stat(backupFile)).mode & 0o777).toBe(0o600);
  });

  test('leaves Agenda out and brings DATA_DIR files, owner-only, without locks', async () => {
    expect(await objectsInSchema(target)).not.toContain('agenda_jobs');
    expect(await readFile(join(targetDir(), 'secret-key'), 'utf8')).toBe('key material\n');
    expect((await stat(join(targetDir(), 'secret-key'))).mode & 0o777).toBe(0o600);
    await expect(stat(join(targetDir(), 'pglite.lock'))).rejects.toThrow();
  });

  test('keeps constraints, indexes, defaults, sequences and the trigger working', async () => {
    const insert = `insert into "Odd ""Name""" (workspace_id, "select") values ('00000000-0000-4000-8000-000000000001', $1) returning id::int, serial_id::int, shouted`;
    const [next] = await source.query<{ id: number; serial_id: number }>(insert, ['next']);
    expect(await target.query(insert, ['next'])).toEqual([{ id: next!.id, serial_id: next!.serial_id, shouted: 'NEXT' }]);
    await expect(target.query(insert, ['NEXT'])).rejects.toThrow(/duplicate key/);
    await expect(target.exec(`insert into workspaces values ('00000000-0000-4000-8000-000000000003', '')`)).rejects.toThrow(/check constraint/);
    await expect(target.exec(`insert into counters values ('00000000-0000-4000-8000-000000000009', 0)`)).rejects.toThrow(/foreign key/);
    await target.exec(`delete from "Odd ""Name""" where "select" = 'next'`);
    expect(await target.query('select deleted from counters')).toEqual([{ deleted: 2 }]);
    await target.exec(`delete from counters; delete from workspaces where id = '00000000-0000-4000-8000-000000000001'`);
    expect(await target.query(`select count(*)::int as n from "Odd ""Name"""`)).toEqual([{ n: 0 }]);
  });

  test('a second backup of the restored database rebuilds the same schema', async () => {
    const again = join(root, 'again.sql');
    await writeBackup({ session: target, dataDir: targetDir(), path: again, loadplaneVersion: 'test' });
    const third = await session('third');
    await restoreBackup({ session: third, dataDir: join(root, 'third'), path: again, force: false }, await readBackupHeader(again, new Set(['core-0001-foundation'])));
    const ddl = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter((line) => /^(CREATE|ALTER|DO)/.test(line));
    const thirdFile = join(root, 'third.sql');
    await writeBackup({ session: third, dataDir: join(root, 'third'), path: thirdFile, loadplaneVersion: 'test' });
    expect(await ddl(thirdFile)).toEqual(await ddl(again));
  });
});

describe('a restore refuses, and leaves the target as it was', () => {
  test('a target that is not empty, unless forced (and forced, it replaces it)', async () => {
    const known = await readBackupHeader(backupFile, new Set(['core-0001-foundation']));
    const busy = await session('busy');
    await busy.exec(`create table leftover (id int); insert into leftover values (1)`);
    await expect(restoreBackup({ session: busy, dataDir: join(root, 'busy'), path: backupFile, force: false }, known)).rejects.toThrow(
      /the database is not empty \(leftover\)/,
    );
    expect(await busy.query('select id from leftover')).toEqual([{ id: 1 }]);
    await restoreBackup({ session: busy, dataDir: join(root, 'busy'), path: backupFile, force: true }, known);
    expect(await objectsInSchema(busy)).not.toContain('leftover');
    expect(await rowsOf(busy, 'workspaces')).toEqual(await rowsOf(source, 'workspaces'));
  });

  test('a file cut short before its COMMIT', async () => {
    const plain = join(root, 'plain.sql');
    await writeBackup({ session: source, dataDir: sourceDataDir(), path: plain, loadplaneVersion: 'test' });
    const whole = (await readFile(plain, 'utf8')).split('\n');
    const cut = join(root, 'cut.sql');
    await writeFile(cut, whole.slice(0, whole.findIndex((line) => line.startsWith('INSERT INTO "counters"'))).join('\n'));
    const empty = await session('cut');
    const known = await readBackupHeader(cut, new Set(['core-0001-foundation']));
    await expect(restoreBackup({ session: empty, dataDir: join(root, 'cut'), path: cut, force: false }, known)).rejects.toThrow(/incomplete/);
    expect(await objectsInSchema(empty)).toEqual([]);
  });

  test('migrations this release does not know, or a file that is no backup', async () => {
    await expect(readBackupHeader(backupFile, new Set())).rejects.toThrow(RestoreRefusedError);
    await expect(readBackupHeader(backupFile, new Set())).rejects.toThrow(/core-0001-foundation/);
    const notBackup = join(root, 'not-a-backup.sql');
    await writeFile(notBackup, 'select 1;\n');
    await expect(readBackupHeader(notBackup, new Set())).rejects.toThrow(/is not a Loadplane backup/);
  });

  test('a file path outside DATA_DIR', () => {
    for (const path of ['../escape', '/etc/passwd', 'pglite', 'a/../../b']) expect(() => dataDirPath('/data', path)).toThrow(/outside/);
    expect(dataDirPath('/data', 'identity/realm-key.json')).toBe('/data/identity/realm-key.json');
  });
});
