/**
 * Follows one task for a stream client (SSE or WebSocket): optional replay of stored lines after an event id,
 * then live events, ending after the terminal one. A finished task answers a single `done` from its record.
 */
import { Task } from '../../domain/entities/task.ts';
import { isTerminal } from '../../domain/run-state.ts';
import type { RunContext } from './run-context.ts';
import { isTerminalEvent, type TaskEvent } from './run-event-bus.ts';
import { toTaskView } from './task-view.ts';

export interface StreamSink {
  /** Delivers events; returns false when the client cannot keep up (the follow then stops). */
  send(events: readonly TaskEvent[]): boolean;
  /** Ends the stream: after the terminal event, or when the client fell behind. */
  end(reason: 'done' | 'slow'): void;
}

const replayPage = 5_000;

export async function followTask(
  ctx: RunContext,
  taskId: string,
  options: { afterId: number | null },
  sink: StreamSink,
): Promise<() => void> {
  let finished = false;
  let lastId = options.afterId ?? 0;
  let buffered: TaskEvent[] | null = [];
  const stop = () => {
    finished = true;
    unsubscribe();
  };
  const deliver = (events: readonly TaskEvent[]) => {
    if (finished) return;
    const fresh = events.filter((event) => event.type !== 'log' || event.id === undefined || event.id > lastId);
    for (const event of fresh) if (event.type === 'log' && event.id !== undefined) lastId = event.id;
    const terminal = fresh.findIndex(isTerminalEvent);
    const batch = terminal >= 0 ? fresh.slice(0, terminal + 1) : fresh;
    if (batch.length > 0 && !sink.send(batch)) {
      stop();
      sink.end('slow');
      return;
    }
    if (terminal >= 0) {
      stop();
      sink.end('done');
    }
  };
  // Subscribe before reading the record, so nothing published in between is lost.
  const unsubscribe = ctx.bus.subscribe(taskId, (events) => {
    if (buffered) buffered.push(...events);
    else deliver(events);
  });

  const task = await ctx.db.fork().findOne(Task, { id: taskId });
  if (!task) {
    stop();
    sink.end('done');
    return stop;
  }
  if (options.afterId !== null) {
    // Resume: the stored lines the client missed, page by page.
    for (;;) {
      const lines = await ctx.logs.read(taskId, lastId, replayPage);
      if (lines.length === 0 || finished) break;
      deliver(lines.map((line) => ({ type: 'log' as const, source: line.source, text: line.text, id: line.id, ...(line.machineId ? { machine_id: line.machineId } : {}) })));
      if (lines.length < replayPage) break;
    }
  }
  if (finished) return stop;
  if (isTerminal(task.status)) {
    const current = await ctx.db.fork().findOneOrFail(Task, { id: taskId });
    buffered = null;
    deliver([{ type: 'done', task: toTaskView(current, ctx.settings.publicUrl) }]);
    return stop;
  }
  const pending = buffered;
  buffered = null;
  deliver(pending);
  return stop;
}
