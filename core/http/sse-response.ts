/**
 * Server-Sent Events for a task: one JSON task event per `data:` frame with its id, comments (keep-alives, why a
 * pending task waits), and a cut-off for slow clients.
 */
import type { StreamSink, TaskEvent } from '../services/runs/task-events.ts';
import { jsonOf } from '../services/runs/event-json.ts';

const encoder = new TextEncoder();
/** What may wait unread for one client before it counts as too slow and is cut off. */
export const maxQueuedBytes = 4 * 1024 * 1024;
const keepAliveMillis = 15_000;

// One event goes to every subscriber: encode it once, not once per subscriber (1000 subscribers, 1000 encodings).
const frames = new WeakMap<TaskEvent, string>();

export function frameOf(event: TaskEvent): string {
  let frame = frames.get(event);
  if (frame === undefined) {
    const id = event.type === 'log' ? (event.id !== undefined ? `id: ${event.id}\n` : '') : 'id: end\n';
    frame = `${id}data: ${jsonOf(event)}\n\n`;
    frames.set(event, frame);
  }
  return frame;
}

export function sseResponse(start: (sink: StreamSink) => Promise<() => void>): Response {
  let stop: (() => void) | null = null;
  let keepAlive: ReturnType<typeof setInterval> | null = null;
  let closed = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      async start(controller) {
        const close = () => {
          if (closed) return;
          closed = true;
          if (keepAlive) clearInterval(keepAlive);
          controller.close();
        };
        const sink: StreamSink = {
          send(events) {
            if (closed) return false;
            controller.enqueue(encoder.encode(events.map(frameOf).join('')));
            // desiredSize goes negative as unread bytes pile up: a client this far behind is cut off.
            return (controller.desiredSize ?? 0) > -maxQueuedBytes;
          },
          end(reason) {
            if (reason === 'slow' && !closed) {
              controller.enqueue(encoder.encode(`event: cutoff\ndata: ${JSON.stringify({ type: 'error', message: 'stream closed: the client did not keep up' })}\n\n`));
            }
            if (reason === 'revoked' && !closed) {
              controller.enqueue(encoder.encode(`event: revoked\ndata: ${JSON.stringify({ type: 'error', message: 'stream closed: access was revoked' })}\n\n`));
            }
            close();
          },
          note(text) {
            // A comment line: `curl -N` shows it, EventSource clients ignore it, JSON events stay as they are.
            if (!closed) controller.enqueue(encoder.encode(`: ${text.replace(/[\r\n]+/g, ' ')}\n\n`));
          },
        };
        // Headers and a first byte at once: a client following a quiet run must not wait for its first line.
        controller.enqueue(encoder.encode(': connected\n\n'));
        keepAlive = setInterval(() => {
          if (!closed) controller.enqueue(encoder.encode(': keep-alive\n\n'));
        }, keepAliveMillis);
        stop = await start(sink);
        if (closed) stop();
        // The replay is done and the client is live: a client (or a benchmark) that must not miss the start of a run
        // can wait for this comment before starting it.
        else controller.enqueue(encoder.encode(': following\n\n'));
      },
      cancel() {
        closed = true;
        if (keepAlive) clearInterval(keepAlive);
        stop?.();
      },
    },
    { highWaterMark: 0, size: (chunk) => chunk?.byteLength ?? 0 },
  );
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
}
