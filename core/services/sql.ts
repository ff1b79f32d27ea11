/**
 * Raw SQL through the ORM's connection: one statement, or several in one transaction whose unit of work flushes at its
 * end. Parameters are bound by the driver ($1, $2 ...), not inlined into the text as the ORM's `execute` does: a log
 * batch's 150 KB JSON parameter costs half as much that way.
 */
import type { EntityManager } from '@mikro-orm/core';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../ports/database.ts';
import type { Sql, SqlDatabase } from '../ports/sql-database.ts';

export type { Sql };

export interface Tx extends Sql {
  /** The transaction's unit of work, for entities written with the ORM (audit entries); flushed before commit. */
  em: EntityManager;
}

type WithKysely = { getKysely(): Kysely<unknown> };

/** `?` placeholders to PostgreSQL's numbered ones (our statements use no `?` operator and no `?` inside literals). */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

// Inside `transactional`, the ORM binds getKysely() to the transaction's connection.
const runner = (em: EntityManager): Sql['all'] =>
  async <T>(sql: string, params: readonly unknown[] = []) =>
    (await (em as unknown as WithKysely).getKysely().executeQuery(CompiledQuery.raw(numbered(sql), [...params]))).rows as T[];

/** Statements on this entity manager's connection (inside `transactional`, the transaction's). */
export const sqlIn = (em: EntityManager): Sql => ({ all: runner(em) });

export function sqlOf(db: Database): Sql {
  return { all: (sql, params) => runner(db.fork())(sql, params) };
}

/** Runs `work` in one transaction; a thrown error rolls everything back, the unit of work included. */
export function transaction<T>(db: Database, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.fork().transactional((em) => work({ em, all: runner(em) }));
}

/** The SQL database port over the ORM's connection (the same pool and transactions as core's own statements). */
export function sqlDatabaseOf(db: Database): SqlDatabase {
  return { kind: db.kind, all: sqlOf(db).all, transaction: (work) => transaction(db, work) };
}

/** `?, ?, ?` for an IN list (the ORM inlines parameters; arrays are not bound as such). */
export const placeholders = (values: readonly unknown[]) => (values.length ? values.map(() => '?').join(', ') : 'null');

/** True for PostgreSQL's unique_violation, however the driver wraps it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown; name?: string } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505' || e.name === 'UniqueConstraintViolationException') return true;
  }
  return false;
}
