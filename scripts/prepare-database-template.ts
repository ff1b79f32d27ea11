/**
 * Prepares the embedded database's template (adapters/db/pglite-template.ts) for the default server, so the first
 * `npm start` on a fresh DATA_DIR loads a migrated cluster instead of running initdb and every migration (about 2.5 s
 * here). Run by `npm ci` (postinstall) and by the container build; a failure only means a slower first start.
 *
 *   bun scripts/prepare-database-template.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadServerPlugins } from '../adapters/composition/plugins.ts';
import { openDatabase } from '../adapters/db/open-database.ts';
import { coreEntities } from '../core/domain/entities/index.ts';
import { coreMigrations } from '../core/domain/migrations/index.ts';

const scratch = await mkdtemp(join(tmpdir(), 'loadplane-template-'));
try {
  // The default server: embedded identity, no LOADPLANE_PLUGINS (the migrations of `npm start` with no settings).
  const plugins = await loadServerPlugins({ extra: [], embeddedIdentity: true });
  const database = await openDatabase({
    pgliteDir: join(scratch, 'pglite'),
    entities: [...coreEntities, ...plugins.flatMap((plugin) => plugin.entities ?? [])],
    migrations: [...coreMigrations, ...plugins.flatMap((plugin) => plugin.migrations ?? [])],
  });
  await database.close();
  console.log('loadplane: prepared the embedded database template (a fresh DATA_DIR starts from it)');
} catch (error) {
  console.log(`loadplane: no embedded database template (${(error as Error).message}); the first start runs initdb instead`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
