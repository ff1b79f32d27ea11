/** The run event bus of one process: task events fan out to every live subscriber (SSE and WebSocket are two views of it). */

export type TaskEvent =
  | { type: 'log'; source: 'out' | 'err'; text: string; machine_id?: string; id?: number }
  | { type: 'done'; task: Record<string, unknown> }
  | { type: 'error'; message: string; task?: Record<string, unknown> };

export type TaskEventListener = (events: readonly TaskEvent[]) => void;

export interface RunEventBus {
  /** Publishes a batch of events of one task, in order. */
  publish(taskId: string, events: readonly TaskEvent[]): void;
  subscribe(taskId: string, listener: TaskEventListener): () => void;
  subscribers(taskId: string): number;
}

export function createRunEventBus(): RunEventBus {
  const listeners = new Map<string, Set<TaskEventListener>>();
  return {
    publish(taskId, events) {
      const set = listeners.get(taskId);
      if (!set || events.length === 0) return;
      for (const listener of [...set]) listener(events);
    },
    subscribe(taskId, listener) {
      let set = listeners.get(taskId);
      if (!set) listeners.set(taskId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(taskId);
      };
    },
    subscribers(taskId) {
      return listeners.get(taskId)?.size ?? 0;
    },
  };
}

export const isTerminalEvent = (event: TaskEvent) => event.type === 'done' || event.type === 'error';
