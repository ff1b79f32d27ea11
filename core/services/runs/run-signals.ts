/**
 * After-commit fan-out of run events: this replica's streams hear at once, the other replicas through a wake-up on the
 * pubsub (coalesced per task, a few milliseconds), and re-read everything they follow when their listener reconnects.
 */
import type { HookBus } from '../../kernel/hook-bus.ts';
import type { KernelHooks } from '../../kernel/hooks.ts';
import type { Logger } from '../../kernel/logger.ts';
import type { Database } from '../../ports/database.ts';
import type { PubSub } from '../../ports/pubsub.ts';
import { sqlOf } from '../sql.ts';
import type { StoredLine } from './log-store.ts';
import type { StreamHub } from './stream-hub.ts';

const logsTopic = 'run_logs';
const finishedTopic = 'run_finished';
/** Pending tasks whose reason changed (ids only: the receivers read the rows). */
const waitingTopic = 'run_waiting';
const coalesceMillis = 5;

export interface RunSignalsDeps {
  db: Database;
  pubsub: PubSub;
  /** This replica's streams, told at once. */
  streams: Pick<StreamHub, 'appended' | 'poke' | 'finished' | 'waiting' | 'recheckWaiting' | 'check'>;
  hooks: Pick<HookBus<KernelHooks>, 'callHook'>;
  logger: Logger;
}

export function createRunSignals(deps: RunSignalsDeps) {
  const sql = sqlOf(deps.db);
  /** Task id -> highest stored sequence not yet announced to the other replicas. */
  const unannounced = new Map<string, number>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  function announce() {
    timer = null;
    const entries = [...unannounced];
    unannounced.clear();
    // NOTIFY payloads stay well under PostgreSQL's 8000 bytes: chunks of 100 tasks.
    for (let i = 0; i < entries.length; i += 100) void deps.pubsub.publish(logsTopic, JSON.stringify(entries.slice(i, i + 100)));
  }

  deps.pubsub.subscribe(logsTopic, (payload) => {
    try {
      for (const [taskId, seq] of JSON.parse(payload) as [string, number][]) deps.streams.poke(taskId, seq);
    } catch {
      // a malformed wake-up is ignored; the periodic check covers it
    }
  });
  deps.pubsub.subscribe(finishedTopic, (taskId) => deps.streams.finished(taskId));
  deps.pubsub.subscribe(waitingTopic, (payload) => {
    let ids: string[];
    try {
      ids = JSON.parse(payload) as string[];
    } catch {
      return; // a malformed wake-up is ignored; the periodic check covers it
    }
    void deps.streams.recheckWaiting(ids).catch((error) => deps.logger.error('task stream failed', { error: String(error) }));
  });
  deps.pubsub.onResync(() => void deps.streams.check().catch(() => {}));

  return {
    linesStored(taskId: string, lines: readonly StoredLine[]) {
      if (lines.length === 0) return;
      deps.streams.appended(taskId, lines);
      if (!deps.pubsub.shared) return;
      unannounced.set(taskId, Math.max(unannounced.get(taskId) ?? 0, lines[lines.length - 1]!.seq));
      timer ??= setTimeout(announce, coalesceMillis);
    },

    taskFinished(taskId: string) {
      deps.streams.finished(taskId);
      if (deps.pubsub.shared) void deps.pubsub.publish(finishedTopic, taskId);
      void (async () => {
        const rows = await sql.all<{ workspace_id: string; payload: Record<string, unknown> | string }>(
          `select workspace_id, payload from outbox where task_id = ? and event = 'run.finished' order by id desc limit 1`,
          [taskId],
        );
        const row = rows[0];
        if (!row) return;
        const payload = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Record<string, unknown>;
        await deps.hooks.callHook('run:finished', {
          workspaceId: row.workspace_id,
          taskId,
          testId: String(payload.test_id),
          machineIds: (payload.machine_ids as string[]) ?? [],
          status: payload.status as 'completed' | 'failed' | 'cancelled',
          durationMs: Number(payload.duration_ms ?? 0),
        });
      })().catch((error) => deps.logger.error('run:finished hook failed', { error: String(error) }));
    },

    /** Pending tasks' reasons changed (committed): this replica's streams hear them at once, the others re-read them. */
    reasonsChanged(changes: readonly { taskId: string; reason: string }[]) {
      for (const change of changes) deps.streams.waiting(change.taskId, change.reason);
      if (!deps.pubsub.shared) return;
      const ids = changes.map((c) => c.taskId);
      // 100 UUIDs per NOTIFY stay well under PostgreSQL's 8000 bytes.
      for (let i = 0; i < ids.length; i += 100) void deps.pubsub.publish(waitingTopic, JSON.stringify(ids.slice(i, i + 100)));
    },

    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

export type RunSignals = ReturnType<typeof createRunSignals>;
