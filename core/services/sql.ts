/** Raw SQL through the ORM's connection: one statement, or several in one transaction whose unit of work flushes at its end. */
import type { EntityManager } from '@mikro-orm/core';
import type { Database } from '../ports/database.ts';

export interface Sql {
  /** Runs one statement with `?` placeholders; rows as plain objects. */
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Tx extends Sql {
  /** The transaction's unit of work, for entities written with the ORM (audit entries); flushed before commit. */
  em: EntityManager;
}

type Executing = { execute(sql: string, params?: unknown[]): Promise<unknown> };

const runner = (em: EntityManager): Sql['all'] =>
  async <T>(sql: string, params: readonly unknown[] = []) => (await (em as unknown as Executing).execute(sql, [...params])) as T[];

export function sqlOf(db: Database): Sql {
  return { all: (sql, params) => runner(db.fork())(sql, params) };
}

/** Runs `work` in one transaction; a thrown error rolls everything back, the unit of work included. */
export function transaction<T>(db: Database, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.fork().transactional((em) => work({ em, all: runner(em) }));
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
