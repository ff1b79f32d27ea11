/** The database port: the host opens the ORM (PGlite or PostgreSQL) and hands it to the core and plugins. */
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { defineCapability } from '../kernel/define-capability.ts';

export interface Database {
  readonly orm: MikroORM;
  /** A fresh unit of work; one per request or job, never shared. */
  fork(): EntityManager;
  /** `postgresql` for a server, `pglite` for the embedded database. */
  readonly kind: 'postgresql' | 'pglite';
}

export const databasePort = defineCapability<Database>({ id: 'port.database', cardinality: 'one' });
