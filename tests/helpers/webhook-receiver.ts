/** A real HTTP endpoint on loopback that records every webhook request (raw body, headers, time) and answers as told. */

export interface ReceivedHook {
  path: string;
  headers: Record<string, string>;
  raw: string;
  body: { id: string; event: string; created_at: string; tenant_id: string; data: Record<string, unknown> };
  at: number;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedHook[];
  /**
   * Decides the answer per request; default 200 "ok". Paths /redirect and /big answer as they say; /slow answers only
   * once the client has given up (or the receiver stops): too late for any timeout, however fast the machine.
   */
  respond: (hook: ReceivedHook) => Response | Promise<Response>;
  waitFor(predicate: (received: ReceivedHook[]) => boolean, timeoutMillis?: number): Promise<ReceivedHook[]>;
  stop(): Promise<void>;
}

export function startWebhookReceiver(): WebhookReceiver {
  const received: ReceivedHook[] = [];
  let stopping = () => {};
  const stopped = new Promise<void>((resolve) => (stopping = resolve));
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    received,
    respond: () => new Response('ok'),
    async waitFor(predicate, timeoutMillis = 30_000) {
      const deadline = Date.now() + timeoutMillis;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`webhook receiver: condition not met; received ${received.map((r) => r.body.event).join(', ')}`);
        await Bun.sleep(20);
      }
      return received;
    },
    async stop() {
      stopping();
      await server.stop(true);
    },
  };
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 60,
    async fetch(request) {
      const raw = await request.text();
      const path = new URL(request.url).pathname;
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      const hook: ReceivedHook = { path, headers, raw, body: JSON.parse(raw), at: Date.now() };
      received.push(hook);
      if (path === '/redirect') return new Response(null, { status: 302, headers: { location: `${receiver.url}/elsewhere` } });
      if (path === '/slow') {
        await new Promise<void>((resolve) => {
          request.signal.addEventListener('abort', () => resolve(), { once: true });
          void stopped.then(resolve);
        });
        return new Response('late');
      }
      if (path === '/big') return new Response('x'.repeat(1024 * 1024));
      return receiver.respond(hook);
    },
  });
  receiver.port = server.port!;
  receiver.url = `http://127.0.0.1:${server.port}`;
  return receiver;
}
