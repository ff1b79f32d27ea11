/**
 * Live task streams of this replica. One feed per followed task reads the task's lines in sequence order: from the
 * storing replica's hand-off when it is this one, from the database when a wake-up (NOTIFY), a gap or the periodic
 * check says there is more. So every subscriber gets every line once, in order, then exactly one terminal event,
 * whichever replica stored the lines and even when a wake-up was lost.
 */
import { Task } from '../../domain/entities/task.ts';
import { isTerminal } from '../../domain/run-state.ts';
import type { Database } from '../../ports/database.ts';
import { placeholders, sqlOf } from '../sql.ts';
import type { LogStore, StoredLine } from './log-store.ts';
import { isTerminalEvent, type StreamSink, type TaskEvent } from './task-events.ts';
import { toTaskView } from './task-view.ts';

interface Subscriber {
  sink: StreamSink;
  lastSeq: number;
  /** Events that arrived while the subscriber was still replaying stored lines. */
  buffer: TaskEvent[] | null;
  closed: boolean;
  /** The pending reason last noted to it. */
  reason: string | null;
}

interface Feed {
  taskId: string;
  /** Highest sequence handed to subscribers; null until read from the task row. */
  seq: number | null;
  ready: Promise<void>;
  subscribers: Set<Subscriber>;
  reading: Promise<void> | null;
  again: boolean;
  terminal: boolean;
  /** Why the task waits, as this feed last heard it (null when it does not wait, or not known yet). */
  reason: string | null;
}

const replayPage = 5_000;

export const logEvent = (line: StoredLine): TaskEvent => ({
  type: 'log',
  source: line.source,
  text: line.text,
  id: line.seq,
  ...(line.machineId ? { machine_id: line.machineId } : {}),
});

export interface StreamHub {
  /**
   * Follows a task: stored lines after `afterSeq` (from the first when null and the run is going), live ones, one
   * terminal event. `seenRunning`: the caller saw the run going when the client connected, so even if it has ended by
   * the time this replica gets to it (a busy replica, a short run), the client gets every line and not just `done`.
   */
  follow(taskId: string, afterSeq: number | null, sink: StreamSink, seenRunning?: boolean): Promise<() => void>;
  /** Lines this replica just stored (committed), in sequence order. */
  appended(taskId: string, lines: readonly StoredLine[]): void;
  /** Another replica stored lines up to `seq`, or something changed: read what is new. */
  poke(taskId: string, seq?: number): void;
  /** The task reached its terminal state (committed). */
  finished(taskId: string): void;
  /** A pending task's reason is now `reason` (null: it does not wait): its subscribers get a note when it changed. */
  waiting(taskId: string, reason: string | null): void;
  /** Another replica changed these tasks' reasons: read the ones this replica follows. */
  recheckWaiting(taskIds: readonly string[]): Promise<void>;
  /** Re-reads every followed task (after missed wake-ups, and periodically). */
  check(): Promise<void>;
  followedTasks(): string[];
  subscribers(taskId: string): number;
}

export function createStreamHub(deps: { db: Database; logs: LogStore; publicUrl: string; onError(error: unknown): void }): StreamHub {
  const feeds = new Map<string, Feed>();
  const sql = sqlOf(deps.db);

  function send(sub: Subscriber, events: readonly TaskEvent[]) {
    if (sub.closed || events.length === 0) return;
    if (sub.buffer) {
      sub.buffer.push(...events);
      return;
    }
    const fresh = events.filter((event) => event.type !== 'log' || event.id > sub.lastSeq);
    const terminal = fresh.findIndex(isTerminalEvent);
    const batch = terminal >= 0 ? fresh.slice(0, terminal + 1) : fresh;
    for (const event of batch) if (event.type === 'log') sub.lastSeq = event.id;
    if (batch.length > 0 && !sub.sink.send(batch)) return close(sub, 'slow');
    if (terminal >= 0) close(sub, 'done');
  }

  function close(sub: Subscriber, reason: 'done' | 'slow') {
    if (sub.closed) return;
    sub.closed = true;
    sub.sink.end(reason);
  }

  /** The `: waiting: ...` line, once per reason per subscriber; none once the run has lines (it is going). */
  function note(sub: Subscriber, reason: string | null) {
    if (sub.closed || reason === null || sub.reason === reason || sub.lastSeq > 0) return;
    sub.reason = reason;
    sub.sink.note?.(`waiting: ${reason}`);
  }

  function waiting(taskId: string, reason: string | null) {
    const feed = feeds.get(taskId);
    if (!feed || feed.terminal || feed.reason === reason) return;
    feed.reason = reason;
    for (const sub of feed.subscribers) note(sub, reason);
  }

  function fanOut(feed: Feed, events: readonly TaskEvent[]) {
    for (const sub of feed.subscribers) send(sub, events);
    for (const sub of feed.subscribers) if (sub.closed) feed.subscribers.delete(sub);
  }

  function feedOf(taskId: string): Feed {
    const existing = feeds.get(taskId);
    if (existing) return existing;
    const created: Feed = { taskId, seq: null, ready: Promise.resolve(), subscribers: new Set(), reading: null, again: false, terminal: false, reason: null };
    // Where the feed starts must be known before any subscriber replays, so nothing falls between the two.
    created.ready = sql
      .all<{ log_seq: string | number }>('select log_seq from tasks where id = ?', [taskId])
      .then((rows) => {
        created.seq = Number(rows[0]?.log_seq ?? 0);
      });
    feeds.set(taskId, created);
    return created;
  }

  /** The terminal event of a finished task: `error` when it never started, else `done` with the final record. */
  async function terminalEvent(taskId: string): Promise<TaskEvent | null> {
    const task = await deps.db.fork().findOne(Task, { id: taskId });
    if (!task || !isTerminal(task.status)) return null;
    const view = toTaskView(task, deps.publicUrl);
    const rows = await sql.all<{ payload: { start_failed?: boolean; error?: string } | string }>(
      `select payload from outbox where task_id = ? and event = 'run.finished' order by id desc limit 1`,
      [taskId],
    );
    const payload = typeof rows[0]?.payload === 'string' ? JSON.parse(rows[0].payload) : rows[0]?.payload;
    return payload?.start_failed ? { type: 'error', message: payload.error ?? task.errorMessage ?? 'the run could not start', task: view } : { type: 'done', task: view };
  }

  /** Reads what is new for a feed from the database, in order; then the terminal event once the task has ended. */
  function catchUp(feed: Feed): Promise<void> {
    if (feed.reading) {
      feed.again = true;
      return feed.reading;
    }
    feed.reading = (async () => {
      try {
        await feed.ready;
        do {
          feed.again = false;
          for (;;) {
            const lines = await deps.logs.read(feed.taskId, feed.seq!, replayPage, true);
            if (lines.length === 0) break;
            feed.seq = lines[lines.length - 1]!.seq;
            fanOut(feed, lines.map(logEvent));
            if (lines.length < replayPage) break;
          }
          if (feed.terminal && !feed.again) {
            const event = await terminalEvent(feed.taskId);
            if (event) {
              // Lines stored before the terminal transition committed are all read by now (the task lock orders them).
              const rest = await deps.logs.read(feed.taskId, feed.seq!, replayPage, true);
              if (rest.length > 0) {
                feed.seq = rest[rest.length - 1]!.seq;
                fanOut(feed, rest.map(logEvent));
              }
              fanOut(feed, [event]);
              feeds.delete(feed.taskId);
              // A subscriber still replaying has the terminal event in its buffer and closes once it has sent it.
              for (const sub of feed.subscribers) if (!sub.buffer) close(sub, 'done');
              return;
            }
          }
        } while (feed.again);
      } catch (error) {
        deps.onError(error);
      } finally {
        feed.reading = null;
      }
    })();
    return feed.reading;
  }

  return {
    async follow(taskId, afterSeq, sink, seenRunning = false) {
      const sub: Subscriber = { sink, lastSeq: afterSeq ?? 0, buffer: [], closed: false, reason: null };
      const feed = feedOf(taskId);
      feed.subscribers.add(sub);
      const stop = () => {
        sub.closed = true;
        feed.subscribers.delete(sub);
        if (feed.subscribers.size === 0 && feeds.get(taskId) === feed && !feed.reading) feeds.delete(taskId);
      };
      try {
        await feed.ready;
        const task = await deps.db.fork().findOne(Task, { id: taskId });
        if (!task) {
          stop();
          sink.end('done');
          return stop;
        }
        if (isTerminal(task.status) && afterSeq === null && !seenRunning) {
          // A run that ended before the client came: one `done` from the record (spec, rule 4).
          stop();
          sink.send([{ type: 'done', task: toTaskView(task, deps.publicUrl) }]);
          sink.end('done');
          return stop;
        }
        // Replay the stored lines the client has not seen, page by page, then what arrived meanwhile.
        for (;;) {
          const lines = await deps.logs.read(taskId, sub.lastSeq, replayPage);
          if (lines.length === 0 || sub.closed) break;
          sub.lastSeq = lines[lines.length - 1]!.seq;
          if (!sink.send(lines.map(logEvent))) {
            stop();
            close(sub, 'slow');
            return stop;
          }
          if (lines.length < replayPage) break;
        }
        const buffered = sub.buffer ?? [];
        sub.buffer = null;
        send(sub, buffered);
        // A waiting task says why at once; later changes come through `waiting`.
        // (Unless a newer one reached it while it was being set up.)
        if (task.status === 'pending' && sub.reason === null) note(sub, task.pendingReason ?? null);
        if (isTerminal(task.status) && !sub.closed) {
          feed.terminal = true;
          void catchUp(feed);
        }
      } catch (error) {
        stop();
        sink.end('done');
        deps.onError(error);
      }
      return stop;
    },

    appended(taskId, lines) {
      const feed = feeds.get(taskId);
      if (!feed || lines.length === 0) return;
      if (feed.seq === null || feed.reading || lines[0]!.seq > feed.seq + 1) {
        // Not contiguous with what the feed has (another replica's lines in between): read them in order.
        void catchUp(feed);
        return;
      }
      const fresh = lines.filter((line) => line.seq > feed.seq!);
      if (fresh.length === 0) return;
      feed.seq = fresh[fresh.length - 1]!.seq;
      fanOut(feed, fresh.map(logEvent));
    },

    poke(taskId, seq) {
      const feed = feeds.get(taskId);
      if (!feed) return;
      if (seq === undefined || feed.seq === null || seq > feed.seq) void catchUp(feed);
    },

    finished(taskId) {
      const feed = feeds.get(taskId);
      if (!feed) return;
      feed.terminal = true;
      void catchUp(feed);
    },

    waiting,

    async recheckWaiting(taskIds) {
      const followed = taskIds.filter((id) => feeds.has(id));
      if (followed.length === 0) return;
      const rows = await sql.all<{ id: string; status: string; pending_reason: string | null }>(
        `select id, status, pending_reason from tasks where id in (${placeholders(followed)})`,
        followed,
      );
      for (const row of rows) waiting(row.id, row.status === 'pending' ? row.pending_reason : null);
    },

    async check() {
      for (const [id, feed] of feeds) if (feed.subscribers.size === 0 && !feed.reading) feeds.delete(id);
      const ids = [...feeds.keys()];
      if (ids.length === 0) return;
      const rows = await sql.all<{ id: string; log_seq: string | number; status: string; pending_reason: string | null }>(
        `select id, log_seq, status, pending_reason from tasks where id in (${ids.map(() => '?').join(', ')})`,
        ids,
      );
      for (const row of rows) {
        const feed = feeds.get(row.id);
        if (!feed) continue;
        // A reason change whose wake-up was lost (or made before this replica listened) shows here.
        waiting(row.id, row.status === 'pending' ? row.pending_reason : null);
        if (isTerminal(row.status)) feed.terminal = true;
        if (feed.terminal || (feed.seq !== null && Number(row.log_seq) > feed.seq)) void catchUp(feed);
      }
    },

    followedTasks: () => [...feeds.keys()],
    subscribers: (taskId) => feeds.get(taskId)?.subscribers.size ?? 0,
  };
}
