/** Prepared PGlite clusters: a fresh database starts from the saved template (schema, no rows), a changed migration makes a new one, and a template that cannot be saved or read only costs time. */
import { Migration } from '@mikro-orm/migrations';
import { afterAll, expect, test } from 'bun:test';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from './open-database.ts';
import { templatePath } from './pglite-template.ts';

const root = await mkdtemp(join(tmpdir(), 'lp-pglite-template-'));
afterAll(() => rm(root, { recursive: true, force: true }));

class CreateNotes extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table notes (id int primary key, body text not null)');
  }
}
class CreateNotesWider extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table notes (id int primary key, body text not null, extra text)');
  }
}

type Db = Awaited<ReturnType<typeof openDatabase>>;
const kysely = (db: Db) => (db.orm.em as unknown as { getKysely(): import('kysely').Kysely<unknown> }).getKysely();
const rows = async (db: Db, query: string) => (await sql.raw<Record<string, unknown>>(query).execute(kysely(db))).rows;
const columns = async (db: Db) => (await rows(db, "select column_name from information_schema.columns where table_name = 'notes' order by column_name")).map((r) => r.column_name);

for (const where of ['memory', 'disk'] as const) {
  test(`${where}: the first fresh database saves its migrated cluster; the next starts from it with the schema and none of the rows`, async () => {
    const templates = join(root, `templates-${where}`);
    const dir = (n: number) => (where === 'memory' ? 'memory://' : join(root, `${where}-${n}`));
    const first = await openDatabase({ pgliteDir: dir(1), entities: [], migrations: [CreateNotes], pgliteTemplateDir: templates });
    await rows(first, "insert into notes values (1, 'written after the migrations')");
    await first.close();
    expect(await readdir(templates)).toHaveLength(1);

    const second = await openDatabase({ pgliteDir: dir(2), entities: [], migrations: [CreateNotes], pgliteTemplateDir: templates });
    expect(await columns(second)).toEqual(['body', 'id']);
    expect(await rows(second, 'select * from notes')).toEqual([]);
    // The migration is recorded as applied: the migrator had nothing left to do.
    expect((await rows(second, 'select name from mikro_orm_migrations')).map((r) => r.name)).toEqual(['CreateNotes']);
    await rows(second, "insert into notes values (2, 'kept')");
    await second.close();

    if (where === 'disk') {
      // A database made from the template is an ordinary one: reopened, it keeps its rows (no template involved).
      const reopened = await openDatabase({ pgliteDir: dir(2), entities: [], migrations: [CreateNotes], pgliteTemplateDir: templates });
      expect(await rows(reopened, 'select id from notes')).toEqual([{ id: 2 }]);
      await reopened.close();
    }
  }, 60_000);
}

test('an edited migration (same name, other SQL) gets its own template, never the stale schema', async () => {
  const templates = join(root, 'templates-edited');
  expect(templatePath(templates, 'memory://', [CreateNotes])).not.toBe(templatePath(templates, 'memory://', [CreateNotesWider]));
  const before = await openDatabase({ pgliteDir: 'memory://', entities: [], migrations: [CreateNotes], pgliteTemplateDir: templates });
  await before.close();
  const after = await openDatabase({ pgliteDir: 'memory://', entities: [], migrations: [CreateNotesWider], pgliteTemplateDir: templates });
  expect(await columns(after)).toEqual(['body', 'extra', 'id']);
  await after.close();
}, 60_000);

test('a template that cannot be written or read costs time only: the database opens, migrated', async () => {
  // Under a file, not a directory: unwritable even for root (a mode would not stop root).
  const aFile = join(root, 'a-file');
  await writeFile(aFile, '');
  const unwritable = await openDatabase({ pgliteDir: 'memory://', entities: [], migrations: [CreateNotes], pgliteTemplateDir: join(aFile, 'templates') });
  expect(await columns(unwritable)).toEqual(['body', 'id']);
  await unwritable.close();

  const corrupt = join(root, 'templates-corrupt');
  await mkdir(corrupt);
  await writeFile(templatePath(corrupt, 'memory://', [CreateNotes]), 'not a tarball');
  const fromCorrupt = await openDatabase({ pgliteDir: 'memory://', entities: [], migrations: [CreateNotes], pgliteTemplateDir: corrupt });
  expect(await columns(fromCorrupt)).toEqual(['body', 'id']);
  await fromCorrupt.close();
  // The damaged file was replaced by a good template: the next fresh database starts from it.
  const next = await openDatabase({ pgliteDir: 'memory://', entities: [], migrations: [CreateNotes], pgliteTemplateDir: corrupt });
  expect(await columns(next)).toEqual(['body', 'id']);
  await next.close();
  expect((await readFile(templatePath(corrupt, 'memory://', [CreateNotes]))).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
}, 60_000);
