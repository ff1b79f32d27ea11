/**
 * The SQL database port: statements with `?` placeholders and transactions, without the ORM, for plugins that own
 * tables (their own migrations) and read the outbox. Rows come back as plain objects.
 */
import { defineCapability } from '../kernel/define-capability.ts';

export interface Sql {
  /** Runs one statement with `?` placeholders; rows as plain objects. */
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface SqlDatabase extends Sql {
  /** Runs `work` in one transaction: every statement through `tx` commits together, or (on a throw) none does. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /** `postgresql` for a server, `pglite` for the embedded database: both speak PostgreSQL's SQL. */
  readonly kind: 'postgresql' | 'pglite';
}

export const sqlDatabasePort = defineCapability<SqlDatabase>({ id: 'port.sqlDatabase', cardinality: 'one' });
