/** The outbox feed port: a consumer reads the run events after its own cursor and moves it with its own writes. */
import { defineCapability } from '../kernel/define-capability.ts';
import type { Sql } from './sql-database.ts';

/** One outbox row as a consumer sees it: a run event written in the transaction of the transition it reports. */
export interface OutboxRecord {
  /** Increasing in commit order: a consumer that has read id n has seen every row below n it will ever see. */
  id: number;
  workspaceId: string;
  /** run.created, run.started, run.finished, assignment.started, assignment.finished. */
  event: string;
  taskId: string | null;
  payload: Record<string, unknown>;
  createdAt: Date;
}

export interface OutboxConsumeOptions {
  /** The events this consumer wants; the others only move its cursor. Default: every event. */
  events?: readonly string[];
  /** Rows handed over at most per call (default 500). */
  limit?: number;
}

export interface OutboxFeed {
  /**
   * Makes sure `consumer` has a cursor; a new consumer starts at the end of the outbox (it is not told about the past).
   * Call it before the first event the consumer must not miss could be written (at setup).
   */
  register(consumer: string): Promise<void>;
  /**
   * Hands the rows after `consumer`'s cursor to `handle` inside one transaction, which also moves the cursor past them:
   * the consumer's own writes through `tx` and the cursor commit together, or neither does (a throw re-reads them
   * next time). One call per consumer at a time across replicas (the cursor row is locked; others wait, never skip);
   * other consumers go at their own pace. Resolves to the number of rows handled: 0 when caught up.
   */
  consume(consumer: string, options: OutboxConsumeOptions, handle: (rows: readonly OutboxRecord[], tx: Sql) => Promise<void>): Promise<number>;
}

export const outboxFeedPort = defineCapability<OutboxFeed>({ id: 'port.outboxFeed', cardinality: 'one' });
