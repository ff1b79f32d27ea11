/** Task stream events (SSE `data:` frames and WebSocket messages) and the sink a stream client offers. */

export type TaskEvent =
  | { type: 'log'; source: 'out' | 'err'; text: string; machine_id?: string; id: number }
  | { type: 'done'; task: Record<string, unknown> }
  | { type: 'error'; message: string; task?: Record<string, unknown> };

export const isTerminalEvent = (event: TaskEvent) => event.type === 'done' || event.type === 'error';

export interface StreamSink {
  /** Delivers events; returns false when the client cannot keep up (the follow then stops). */
  send(events: readonly TaskEvent[]): boolean;
  /** Ends the stream: after the terminal event, when the client fell behind, or when its access was revoked. */
  end(reason: 'done' | 'slow' | 'revoked'): void;
  /** A line for a person following it, never an event (SSE sends it as a comment; WebSocket, JSON only, has none). */
  note?(text: string): void;
}
