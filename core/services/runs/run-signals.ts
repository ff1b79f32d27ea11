/**
 * After-commit fan-out of run events: this replica's streams hear at once, the other replicas through a wake-up on the
 * pubsub (coalesced per task, a few milliseconds), and re-read everything they follow when their listener reconnects.
 */
import { sqlOf } from '../sql.ts';
import type { StoredLine } from './log-store.ts';
import type { RunContext } from './run-context.ts';

const logsTopic = 'run_logs';
const finishedTopic = 'run_finished';
/** Pending tasks whose reason changed (ids only: the receivers read the rows). */
const waitingTopic = 'run_waiting';
const coalesceMillis = 5;

export function createRunSignals(ctx: RunContext) {
  const sql = sqlOf(ctx.db);
  /** Task id -> highest stored sequence not yet announced to the other replicas. */
  const unannounced = new Map<string, number>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  function announce() {
    timer = null;
    const entries = [...unannounced];
    unannounced.clear();
    // NOTIFY payloads stay well under PostgreSQL's 8000 bytes: chunks of 100 tasks.
    for (let i = 0; i < entries.length; i += 100) void ctx.pubsub.publish(logsTopic, JSON.stringify(entries.slice(i, i + 100)));
  }

  ctx.pubsub.subscribe(logsTopic, (payload) => {
    try {
      for (const [taskId, seq] of JSON.parse(payload) as [string, number][]) ctx.streams.poke(taskId, seq);
    } catch {
      // a malformed wake-up is ignored; the periodic check covers it
    }
  });
  ctx.pubsub.subscribe(finishedTopic, (taskId) => ctx.streams.finished(taskId));
  ctx.pubsub.subscribe(waitingTopic, (payload) => {
    let ids: string[];
    try {
      ids = JSON.parse(payload) as string[];
    } catch {
      return; // a malformed wake-up is ignored; the periodic check covers it
    }
    void ctx.streams.recheckWaiting(ids).catch((error) => ctx.logger.error('task stream failed', { error: String(error) }));
  });
  ctx.pubsub.onResync(() => void ctx.streams.check().catch(() => {}));

  return {
    linesStored(taskId: string, lines: readonly StoredLine[]) {
      if (lines.length === 0) return;
      ctx.streams.appended(taskId, lines);
      if (!ctx.pubsub.shared) return;
      unannounced.set(taskId, Math.max(unannounced.get(taskId) ?? 0, lines[lines.length - 1]!.seq));
      timer ??= setTimeout(announce, coalesceMillis);
    },

    taskFinished(taskId: string) {
      ctx.streams.finished(taskId);
      if (ctx.pubsub.shared) void ctx.pubsub.publish(finishedTopic, taskId);
      void (async () => {
        const rows = await sql.all<{ workspace_id: string; payload: Record<string, unknown> | string }>(
          `select workspace_id, payload from outbox where task_id = ? and event = 'run.finished' order by id desc limit 1`,
          [taskId],
        );
        const row = rows[0];
        if (!row) return;
        const payload = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Record<string, unknown>;
        await ctx.hooks.callHook('run:finished', {
          workspaceId: row.workspace_id,
          taskId,
          testId: String(payload.test_id),
          machineIds: (payload.machine_ids as string[]) ?? [],
          status: payload.status as 'completed' | 'failed' | 'cancelled',
          durationMs: Number(payload.duration_ms ?? 0),
        });
      })().catch((error) => ctx.logger.error('run:finished hook failed', { error: String(error) }));
    },

    /** Pending tasks' reasons changed (committed): this replica's streams hear them at once, the others re-read them. */
    reasonsChanged(changes: readonly { taskId: string; reason: string }[]) {
      for (const change of changes) ctx.streams.waiting(change.taskId, change.reason);
      if (!ctx.pubsub.shared) return;
      const ids = changes.map((c) => c.taskId);
      // 100 UUIDs per NOTIFY stay well under PostgreSQL's 8000 bytes.
      for (let i = 0; i < ids.length; i += 100) void ctx.pubsub.publish(waitingTopic, JSON.stringify(ids.slice(i, i + 100)));
    },

    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

export type RunSignals = ReturnType<typeof createRunSignals>;
