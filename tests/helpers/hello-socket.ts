/** One agent socket that says hello with the fields a test gives (hostname, machine key, tools, region) and records the answers. */

export interface HelloSocket {
  /** The welcome, or null when the server refused the hello (see `closed`). */
  welcome: { machineId: string; hostname?: string } | null;
  /** Every message the server sent, parsed. */
  readonly messages: { type: string; message?: string }[];
  /** The close the server (or the network) gave this socket, once closed. */
  closed(): { code: number; reason: string } | null;
  /** Waits until the socket is closed, and returns how. */
  whenClosed(): Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
  close(): Promise<void>;
}

export interface HelloFields {
  hostname: string;
  machineKey?: string;
  tools?: string[];
  /** Sent only when given, as an agent started with --region does. */
  region?: string;
}

/** Opens `origin`'s agent socket with `token`, says hello, and resolves once welcomed or refused. */
export async function sayHello(origin: string, token: string, fields: HelloFields): Promise<HelloSocket> {
  // Bun's client takes headers (the token travels in Authorization, as the real agent sends it).
  const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}/api/v1/agent`, { headers: { authorization: `Bearer ${token}` } } as unknown as string[]);
  const messages: { type: string; message?: string }[] = [];
  let closed: { code: number; reason: string } | null = null;
  const closedWaiters: (() => void)[] = [];
  const answered = new Promise<void>((resolve) => {
    ws.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { type: string };
      messages.push(message);
      if (message.type === 'welcome') resolve();
    });
    ws.addEventListener('close', (event) => {
      closed = { code: event.code, reason: event.reason };
      for (const waiter of closedWaiters.splice(0)) waiter();
      resolve();
    });
  });
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve());
    ws.addEventListener('error', () => reject(new Error(`agent socket to ${origin} failed`)));
  });
  ws.send(
    JSON.stringify({
      type: 'hello',
      protocol: 1,
      hostname: fields.hostname,
      ip_address: '127.0.0.1',
      os: 'linux',
      arch: 'x64',
      cpu_cores: 1,
      memory_gb: 1,
      agent_version: 'test',
      tools: fields.tools ?? [],
      running: [],
      ...(fields.machineKey ? { machine_key: fields.machineKey } : {}),
      ...(fields.region !== undefined ? { region: fields.region } : {}),
    }),
  );
  await answered;
  const welcome = (messages.find((m) => m.type === 'welcome') as unknown as HelloSocket['welcome']) ?? null;
  const whenClosed = () =>
    new Promise<{ code: number; reason: string }>((resolve) => {
      if (closed) resolve(closed);
      else closedWaiters.push(() => resolve(closed!));
    });
  return {
    welcome,
    messages,
    closed: () => closed,
    whenClosed,
    send: (message) => ws.send(JSON.stringify(message)),
    async close() {
      if (closed) return;
      ws.close(1000, 'test done');
      await whenClosed();
    },
  };
}

/** A machine key as an agent makes one (random, URL-safe). */
export const newMachineKey = () => crypto.randomUUID().replaceAll('-', '') + crypto.randomUUID().replaceAll('-', '');
