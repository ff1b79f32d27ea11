/**
 * A task log-stream subscriber that survives server restarts the way a careful client does: when the connection drops
 * before a terminal event it reconnects with `Last-Event-ID` (0 when it had no line yet, as it wants every line).
 * It keeps every event of every connection, so a test can check order, gaps, duplicates and the single terminal event.
 */

export interface StreamEvent {
  /** Which connection (0 = the first) delivered it. */
  connection: number;
  id: string | null;
  data: Record<string, unknown>;
}

export interface SseSubscriber {
  taskId: string;
  events: StreamEvent[];
  /** Problems the client itself saw (a non-200 answer, a frame that is not JSON). */
  problems: string[];
  /** Resolves when the first connection answered (headers received). */
  opened: Promise<void>;
  /** True once a terminal event arrived and the server ended that stream. */
  isFinished(): boolean;
  /** Whether the server ended the stream after the terminal event (rather than the client giving up). */
  endedAfterTerminal(): boolean;
  connections(): number;
  stop(): void;
}

const isTerminal = (data: Record<string, unknown>) => data.type === 'done' || data.type === 'error';

export function subscribeSse(origin: string, token: string, taskId: string, options: { giveUpMillis?: number } = {}): SseSubscriber {
  const events: StreamEvent[] = [];
  const problems: string[] = [];
  let stopped = false;
  let finished = false;
  let endedAfterTerminal = false;
  let connection = -1;
  let controller: AbortController | null = null;
  let markOpened!: () => void;
  const opened = new Promise<void>((resolve) => (markOpened = resolve));

  const lastLogId = () => {
    for (let i = events.length - 1; i >= 0; i--) if (events[i]!.data.type === 'log' && events[i]!.id) return events[i]!.id!;
    return null;
  };

  /** Reads one connection; true when the terminal event came. */
  async function readOne(response: Response): Promise<boolean> {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let terminal = false;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        endedAfterTerminal = terminal;
        return terminal;
      }
      buffer += value;
      let split: number;
      while ((split = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, split);
        buffer = buffer.slice(split + 2);
        let id: string | null = null;
        const data: string[] = [];
        for (const line of frame.split('\n')) {
          if (line.startsWith('id: ')) id = line.slice(4);
          else if (line.startsWith('data: ')) data.push(line.slice(6));
        }
        if (data.length === 0) continue; // a keep-alive comment
        try {
          const parsed = JSON.parse(data.join('\n')) as Record<string, unknown>;
          events.push({ connection, id, data: parsed });
          if (isTerminal(parsed)) terminal = true;
        } catch {
          problems.push(`connection ${connection}: a frame that is not JSON: ${data.join('\n').slice(0, 200)}`);
        }
      }
    }
  }

  void (async () => {
    let failingSince: number | null = null;
    while (!stopped) {
      connection++;
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (connection > 0) headers['last-event-id'] = lastLogId() ?? '0';
      controller = new AbortController();
      try {
        const response = await fetch(`${origin}/api/v1/tasks/${taskId}/log-stream`, { headers, signal: controller.signal });
        markOpened();
        if (response.status !== 200) {
          problems.push(`connection ${connection}: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
          return;
        }
        failingSince = null;
        if (await readOne(response)) {
          finished = true;
          return;
        }
      } catch {
        // The server went away (a restart): try again shortly.
      }
      failingSince ??= Date.now();
      if (Date.now() - failingSince > (options.giveUpMillis ?? 60_000)) {
        problems.push(`gave up reconnecting after ${options.giveUpMillis ?? 60_000} ms`);
        markOpened();
        return;
      }
      await Bun.sleep(150);
    }
  })();

  return {
    taskId,
    events,
    problems,
    opened,
    isFinished: () => finished,
    endedAfterTerminal: () => endedAfterTerminal,
    connections: () => connection + 1,
    stop() {
      stopped = true;
      controller?.abort();
    },
  };
}
