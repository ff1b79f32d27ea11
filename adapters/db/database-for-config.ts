/** Picks the database for a config: PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR/pglite. */
import { join } from 'node:path';
import type { Config } from '../../config/schema.ts';
import type { BootOptions } from '../../core/boot-service.ts';
import { openDatabase } from './open-database.ts';

export const databaseForConfig =
  (config: Readonly<Config>): BootOptions['openDatabase'] =>
  (schema) =>
    openDatabase({
      ...schema,
      databaseUrl: config.databaseUrl,
      pgliteDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite'),
    });
