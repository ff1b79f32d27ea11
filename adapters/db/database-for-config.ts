/**
 * Picks the database for a config: PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR/pglite, held
 * with DATA_DIR/pglite.lock while open (one process at a time: pglite-lock.ts).
 */
import { join } from 'node:path';
import type { Config } from '../../config/schema.ts';
import type { BootOptions } from '../../core/boot-service.ts';
import { openDatabase } from './open-database.ts';
import { lockPglite } from './pglite-lock.ts';

export const databaseForConfig =
  (config: Readonly<Config>): BootOptions['openDatabase'] =>
  async (schema) => {
    if (config.databaseUrl) return openDatabase({ ...schema, databaseUrl: config.databaseUrl });
    const pgliteDir = join(config.dataDir, 'pglite');
    const release = lockPglite(pgliteDir, 'a running Loadplane service');
    try {
      const database = await openDatabase({ ...schema, pgliteDir });
      return {
        ...database,
        async close() {
          try {
            await database.close();
          } finally {
            release();
          }
        },
      };
    } catch (error) {
      release();
      throw error;
    }
  };
