/** Reads a task's log stream (Server-Sent Events) as events and comments, and lets go of it when the reader stops. */

export type SseItem = { kind: 'event'; id: string | null; event: string | null; data: string } | { kind: 'comment'; text: string };

/** One SSE line may not grow past this: a stream that never ends its line is cut, not buffered without end. */
const maxLineChars = 8 * 1024 * 1024;

/**
 * The items of an SSE body in order. Comments (`: following`, `: waiting: ...`) come as they arrive; an event when its
 * blank line does. Breaking out of the loop cancels the body, which ends the server's subscription; so does `signal`,
 * even while a read waits (a generator's own return would wait for that read).
 */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseItem> {
  const reader = body.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  if (signal?.aborted) stop();
  signal?.addEventListener('abort', stop, { once: true });
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let id: string | null = null;
  let event: string | null = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      // An index walks the buffer: slicing it at every line would copy a large replay page once per line.
      let start = 0;
      for (let end = buffer.indexOf('\n', start); end >= 0; end = buffer.indexOf('\n', start)) {
        const line = buffer.slice(start, end).replace(/\r$/, '');
        start = end + 1;
        if (line === '') {
          if (data.length > 0) yield { kind: 'event', id, event, data: data.join('\n') };
          data = [];
          event = null;
        } else if (line.startsWith(':')) {
          yield { kind: 'comment', text: line.slice(1).trim() };
        } else {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data') data.push(text);
          else if (field === 'id') id = text;
          else if (field === 'event') event = text;
        }
      }
      buffer = buffer.slice(start);
      if (buffer.length > maxLineChars) throw new Error(`the stream sent a line longer than ${maxLineChars} characters`);
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    await reader.cancel().catch(() => {});
  }
}
