/**
 * A prepared PGlite cluster for fresh databases: `initdb` plus every migration, saved once as a tarball and loaded
 * instead of doing both again (about 2.5 of a first start's 3 seconds here, and as much per in-memory test service).
 *
 * The tarball holds schema only (no migration writes rows), so sharing it between installations shares no secret. Its
 * name is a hash of PGlite's version, the database name and the SOURCE of every migration: an edited migration makes a
 * new template, never a stale schema. It is a cache: a missing, unreadable or unwritable template only costs time.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { MigrationClass } from '../../core/kernel/define-plugin.ts';

/** Beside the installed packages: a new `npm ci` (or a new PGlite) starts from a clean cache. */
export const defaultTemplateDir = join(dirname(fileURLToPath(import.meta.url)), '../../node_modules/.cache/loadplane/pglite');

/** The version of the PGlite that MikroORM's driver loads (it may carry its own copy, not the project's). */
const pgliteVersion = (() => {
  try {
    const driver = createRequire(import.meta.url).resolve('@mikro-orm/pglite');
    let dir = dirname(createRequire(driver).resolve('@electric-sql/pglite'));
    for (; dir !== dirname(dir); dir = dirname(dir)) {
      const path = join(dir, 'package.json');
      if (!existsSync(path)) continue;
      const found = JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version: string };
      if (found.name === '@electric-sql/pglite') return found.version;
    }
  } catch {
    // Unknown: the database name and migrations still key the template; a PGlite upgrade comes with a new npm ci.
  }
  return 'unknown';
})();

/** The template file for this schema: `<dir>/<hash>.tar.gz`. */
export function templatePath(dir: string, database: string, migrations: readonly MigrationClass[]): string {
  const hash = createHash('sha256').update(`pglite ${pgliteVersion}\0database ${database}\0`);
  // A plain-SQL migration's class text is the same for all of them: its `source` holds its statements.
  for (const migration of migrations) hash.update(`${migration.name}\0${(migration as { source?: string }).source ?? String(migration)}\0`);
  return join(dir, `${hash.digest('hex').slice(0, 32)}.tar.gz`);
}

/** A PGlite data directory not made yet (nothing of PostgreSQL's in it): `memory://` always is. */
export function isFreshCluster(dataDir: string): boolean {
  return dataDir === 'memory://' || !existsSync(join(dataDir, 'PG_VERSION'));
}

/** What PGlite's `loadDataDir` reads of a Blob: its type and its bytes. */
export interface TemplateTarball {
  type: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/**
 * The saved template unpacked, or null when there is none or it is damaged (dropped then, so the next start saves a
 * good one). Unpacked here, not by PGlite: gzip's checksum finds a damaged file before PGlite, which cannot fail
 * cleanly on one, is handed it. Not a Blob: MikroORM deep-clones its driver options and cannot clone one; PGlite reads
 * only `type` (none: a plain tar) and `arrayBuffer()`.
 */
export async function readTemplate(path: string): Promise<TemplateTarball | null> {
  let packed: Buffer;
  try {
    packed = await readFile(path);
  } catch {
    return null;
  }
  try {
    const tar = gunzipSync(packed);
    return { type: '', arrayBuffer: async () => tar.buffer.slice(tar.byteOffset, tar.byteOffset + tar.byteLength) as ArrayBuffer };
  } catch {
    await dropTemplate(path);
    return null;
  }
}

/** Forgets a template PGlite could not load (corrupt, or from another PGlite): the next fresh start makes a new one. */
export async function dropTemplate(path: string): Promise<void> {
  await rm(path, { force: true }).catch(() => {});
}

export async function saveTemplate(path: string, dump: () => Promise<Blob>): Promise<void> {
  try {
    const bytes = new Uint8Array(await (await dump()).arrayBuffer());
    await mkdir(dirname(path), { recursive: true });
    const aside = `${path}.${process.pid}.${Date.now()}.part`;
    await writeFile(aside, bytes, { mode: 0o644 });
    await rename(aside, path);
    await keepNewest(dirname(path), 6);
  } catch {
    // A cache: a read-only install (a container's node_modules) just does without.
  }
}

/** Each edited migration makes a template of several MB: keep the few newest, drop older ones. */
async function keepNewest(dir: string, count: number): Promise<void> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.tar.gz'));
  const dated = await Promise.all(names.map(async (name) => ({ name, at: (await stat(join(dir, name))).mtimeMs })));
  dated.sort((a, b) => b.at - a.at);
  for (const { name } of dated.slice(count)) await rm(join(dir, name), { force: true });
}
