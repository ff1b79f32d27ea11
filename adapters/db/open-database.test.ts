/** The embedded database's files under DATA_DIR are the owner's only, like every other data file (issue: pglite/ was 0755, its files 0644). */
import { afterAll, expect, test } from 'bun:test';
import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './open-database.ts';

const root = await mkdtemp(join(tmpdir(), 'lp-pglite-modes-'));
afterAll(() => rm(root, { recursive: true, force: true }));

/** Every path under `dir` whose mode lets group or others in. */
async function openToOthers(dir: string): Promise<string[]> {
  const found: string[] = [];
  if (((await stat(dir)).mode & 0o077) !== 0) found.push(dir);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await openToOthers(path)));
    else if (entry.isFile() && ((await stat(path)).mode & 0o077) !== 0) found.push(path);
  }
  return found;
}

async function loosen(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await loosen(path);
    else if (entry.isFile()) await chmod(path, 0o644);
  }
}

test('PGlite under DATA_DIR: created 0700, and an older installation left open (0755 directory, 0644 files) is tightened', async () => {
  const fresh = join(root, 'pglite');
  const db = await openDatabase({ pgliteDir: fresh, entities: [], migrations: [] });
  await db.close();
  expect(((await stat(fresh)).mode & 0o777).toString(8)).toBe('700');
  // Whatever mode PGlite gives its own files, nobody but the owner can reach them through a 0700 directory.
  expect(await readdir(fresh)).not.toHaveLength(0);

  // As an older version left it: the directory 0755, every file 0644.
  await loosen(fresh);
  expect(await openToOthers(fresh)).not.toEqual([]);
  const reopened = await openDatabase({ pgliteDir: fresh, entities: [], migrations: [] });
  await reopened.close();
  expect(await openToOthers(fresh)).toEqual([]);
});
