/**
 * A diagnostic for the log path's fan-out, outside the service: a bare Bun server publishes batches of task log events
 * to N SSE subscribers (the same frames as core/http/sse-response.ts), three ways, measured with the same subscribers
 * process as bench/log-path.ts:
 *   current  each subscriber JSON-stringifies and encodes every event itself (what sse-response.ts does today)
 *   shared   the batch is stringified and encoded once; every subscriber enqueues the same bytes
 *   direct   shared bytes written to Bun's `type: "direct"` streams (no ReadableStream queue and pull per chunk)
 *
 *   ./node_modules/.bin/bun bench/runs/fanout-experiment.ts [--subscribers 1000] [--rate 200] [--seconds 10] [--modes current,shared,direct]
 */
import { resolve } from 'node:path';
import { cpuMeter, fmt, markdownTable, parseFlags } from './harness.ts';

type Mode = 'current' | 'shared' | 'direct';
interface LogEvent {
  type: 'log';
  source: 'out';
  text: string;
  machine_id: string;
  id: number;
}

const encoder = new TextEncoder();
const frameOf = (event: LogEvent | { type: 'done' }) => `${'id' in event ? `id: ${event.id}\n` : 'id: end\n'}data: ${JSON.stringify(event)}\n\n`;

function serve(mode: Mode) {
  const now = () => performance.timeOrigin + performance.now();
  const machineId = crypto.randomUUID();
  type Sink = { send(events: readonly (LogEvent | { type: 'done' })[], shared: Uint8Array): void; close(): void };
  const sinks = new Set<Sink>();
  let seq = 0;
  let id = 0;
  const publish = (events: (LogEvent | { type: 'done' })[]) => {
    const shared = mode === 'current' ? new Uint8Array() : encoder.encode(events.map(frameOf).join(''));
    for (const sink of sinks) sink.send(events, shared);
  };
  const line = (text: string): LogEvent => ({ type: 'log', source: 'out', text, machine_id: machineId, id: ++id });
  const waiting = setInterval(() => publish([line('waiting for subscribers')]), 50);

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 120,
    fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === '/go') {
        clearInterval(waiting);
        const lines = Number(url.searchParams.get('lines'));
        const rate = Number(url.searchParams.get('rate'));
        const started = performance.now();
        const padding = 'x'.repeat(100);
        // Like the agent: a batch every 50 ms with the lines due by then.
        const timer = setInterval(() => {
          const due = Math.min(lines, Math.floor(((performance.now() - started) / 1000) * rate));
          const batch: LogEvent[] = [];
          while (seq < due) {
            const head = `L ${++seq} ${now().toFixed(3)} `;
            batch.push(line(head + padding.slice(0, 100 - head.length - 1)));
          }
          if (batch.length) publish(batch);
          if (seq >= lines) {
            clearInterval(timer);
            publish([{ type: 'done' }]);
            for (const sink of sinks) sink.close();
          }
        }, 50);
        return new Response('go');
      }
      let sink: Sink;
      const headers = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };
      if (mode === 'direct') {
        let closed = false;
        let finish!: () => void;
        const ended = new Promise<void>((done) => (finish = done));
        const stream = new ReadableStream({
          type: 'direct',
          async pull(controller: { write(bytes: Uint8Array): void; flush(): void; close(): void }) {
            sink = {
              send(_events, shared) {
                if (closed) return;
                controller.write(shared);
                controller.flush();
              },
              close() {
                closed = true;
                sinks.delete(sink);
                controller.close();
                finish();
              },
            };
            sinks.add(sink);
            await ended;
          },
          cancel() {
            closed = true;
            sinks.delete(sink);
            finish();
          },
        } as unknown as UnderlyingDefaultSource<Uint8Array>);
        return new Response(stream, { headers });
      }
      const stream = new ReadableStream<Uint8Array>(
        {
          start(controller) {
            sink = {
              send(events, shared) {
                controller.enqueue(mode === 'current' ? encoder.encode(events.map(frameOf).join('')) : shared);
              },
              close() {
                sinks.delete(sink);
                controller.close();
              },
            };
            sinks.add(sink);
          },
          cancel() {
            sinks.delete(sink);
          },
        },
        { highWaterMark: 0, size: (chunk) => chunk?.byteLength ?? 0 },
      );
      return new Response(stream, { headers });
    },
  });
  console.log(server.port);
}

async function readLine(stream: ReadableStream<Uint8Array>, reader = stream.getReader()): Promise<string> {
  let text = '';
  while (!text.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return text.trim();
}

async function drive() {
  const { flags } = parseFlags(Bun.argv.slice(2), { subscribers: '1000', rate: '200', seconds: '10', modes: 'current,shared,direct' });
  const bun = process.execPath;
  const lines = Number(flags.rate) * Number(flags.seconds);
  const rows: string[][] = [];
  for (const mode of flags.modes.split(',') as Mode[]) {
    console.error(`fanout-experiment: ${mode}`);
    const server = Bun.spawn([bun, import.meta.path, '--serve', mode], { stdout: 'pipe', stderr: 'inherit' });
    const port = Number(await readLine(server.stdout));
    const url = `http://127.0.0.1:${port}`;
    const clients = Bun.spawn(
      [bun, resolve(import.meta.dir, 'sse-clients.ts'), '--url', url, '--task', 'x', '--token', 'x', '--count', flags.subscribers, '--lines', String(lines), '--timeout', '120000'],
      { stdout: 'pipe', stderr: 'inherit', env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(Number(flags.subscribers) + 16) } },
    );
    const reader = clients.stdout.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let meter: (() => Record<string, number | null>) | null = null;
    let cpu: Record<string, number | null> = {};
    let result: Record<string, unknown> | null = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let split: number;
      while ((split = buffer.indexOf('\n')) >= 0) {
        const message = JSON.parse(buffer.slice(0, split)) as { event: string };
        buffer = buffer.slice(split + 1);
        if (message.event === 'connected') {
          meter = cpuMeter({ server: server.pid });
          await (await fetch(`${url}/go?lines=${lines}&rate=${flags.rate}`)).text();
        } else if (message.event === 'result') {
          cpu = meter?.() ?? {};
          result = message;
        }
      }
    }
    server.kill();
    await server.exited;
    if (!result) throw new Error(`no result for ${mode}`);
    const latency = result.latency as { p50: number; p99: number; max: number };
    rows.push([mode, fmt(cpu.server ?? NaN, 0), fmt(result.cpuPercent as number, 0), fmt(latency.p50), fmt(latency.p99), fmt(latency.max), `${result.complete}/${flags.subscribers}`]);
  }
  console.log(
    [
      `### Fan-out experiment: ${flags.subscribers} SSE subscribers, ${flags.rate} lines/s in 50 ms batches for ${flags.seconds} s (bare Bun server, 2 cores)`,
      '',
      markdownTable(['mode', 'server CPU % of one core', 'subscribers CPU %', 'latency p50 ms', 'p99 ms', 'max ms', 'every line'], rows),
    ].join('\n'),
  );
}

const serveIndex = Bun.argv.indexOf('--serve');
if (serveIndex >= 0) serve(Bun.argv[serveIndex + 1] as Mode);
else await drive();
