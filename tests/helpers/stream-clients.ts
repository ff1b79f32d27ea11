/** Real-socket clients for the task streams: an SSE reader (fetch) and a WebSocket reader, collecting task events. */

export interface SseEvent {
  id: string | null;
  data: Record<string, unknown>;
}

/** Reads an SSE response until it ends (or `stopAfter` says so); returns the events and whether the server closed it. */
export async function readSse(
  response: Response,
  stopAfter?: (events: SseEvent[]) => boolean,
): Promise<{ events: SseEvent[]; ended: boolean }> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { events, ended: true };
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
      events.push({ id, data: JSON.parse(data.join('\n')) });
      if (stopAfter?.(events)) {
        await reader.cancel();
        return { events, ended: false };
      }
    }
  }
}

/** Opens a WebSocket with an Authorization header (Bun's client) and collects JSON messages until it closes. */
export function readWebSocket(url: string, token: string): Promise<{ messages: Record<string, unknown>[]; code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } } as unknown as string[]);
    const messages: Record<string, unknown>[] = [];
    socket.addEventListener('message', (event) => messages.push(JSON.parse(String(event.data))));
    socket.addEventListener('close', (event) => resolve({ messages, code: event.code, reason: event.reason }));
    socket.addEventListener('error', () => {
      if (socket.readyState === WebSocket.CLOSED && messages.length === 0) reject(new Error('websocket failed'));
    });
  });
}

/** The HTTP answer to a WebSocket upgrade request, for handshakes that must fail with a JSON body. */
export async function upgradeAttempt(url: string, token?: string): Promise<Response> {
  return fetch(url.replace(/^ws/, 'http'), {
    headers: {
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': btoa('loadplane-test-k'),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });
}

/** A task's SSE stream read as raw text while it goes on (comment lines included), until `close()`. */
export function openRawStream(origin: string, taskId: string, token: string) {
  const abort = new AbortController();
  let text = '';
  const ended = (async () => {
    const response = await fetch(`${origin}/api/v1/tasks/${taskId}/log-stream`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += value;
    }
  })().catch(() => {});
  return { text: () => text, ended, close: () => abort.abort() };
}
