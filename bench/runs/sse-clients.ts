/**
 * The log-path benchmark's subscribers, in their own process so they do not share the server's event loop: opens
 * `--count` SSE streams on one task over real sockets, says when all are connected (each saw a first event: the
 * generator prints `waiting` lines until it is told to start), then reads `L <seq> <emit ms>`
 * lines until the terminal event and reports counts, order, per-subscriber rates and end-to-end latencies.
 *
 *   bun bench/runs/sse-clients.ts --url http://127.0.0.1:PORT --task ID --token psk_... --count 100 --lines N [--timeout 120000]
 *
 * Protocol on stdout: one JSON object per line, `{"event":"connected",...}` then `{"event":"result",...}`.
 * Fetch allows 256 concurrent requests unless BUN_CONFIG_MAX_HTTP_REQUESTS says more: the parent sets it.
 */
export {};

const args = Bun.argv.slice(2);
const option = (name: string, fallback = '') => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? (args[index + 1] ?? fallback) : fallback;
};
const url = option('url');
const taskId = option('task');
const token = option('token');
const count = Number(option('count', '1'));
const expected = Number(option('lines', '0'));
const timeoutMs = Number(option('timeout', '120000'));
if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(url)) throw new Error(`loopback only: ${url}`);

const now = () => performance.timeOrigin + performance.now();
const emit = (message: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(message)}\n`);

/** Latency histogram for all subscribers together: 0.1 ms bins up to 20 s, then one overflow bin (max kept apart). */
const binMs = 0.1;
const bins = new Uint32Array(200_001);
let latencyMax = 0;
let latencyCount = 0;
function record(latency: number) {
  const bin = Math.min(bins.length - 1, Math.max(0, Math.floor(latency / binMs)));
  bins[bin]!++;
  latencyCount++;
  if (latency > latencyMax) latencyMax = latency;
}
function latencyPercentile(p: number): number {
  const rank = Math.ceil((p / 100) * latencyCount);
  let seen = 0;
  for (let i = 0; i < bins.length; i++) {
    seen += bins[i]!;
    if (seen >= rank && rank > 0) return i === bins.length - 1 ? latencyMax : (i + 1) * binMs;
  }
  return NaN;
}

interface Subscriber {
  status: number;
  lines: number;
  outOfOrder: number;
  lastSeq: number;
  firstAt: number;
  lastAt: number;
  done: boolean;
  cutoff: boolean;
  error: string | null;
}

const marker = '"text":"L ';
/** The first few order breaks seen (any subscriber), for the report. */
const gaps: string[] = [];
const controller = new AbortController();
let connected = 0;
let failed = 0;
let announced = false;
let cpuAtConnect = process.cpuUsage();
let connectedAt = 0;
const announce = () => {
  if (announced || connected + failed < count) return;
  announced = true;
  cpuAtConnect = process.cpuUsage();
  connectedAt = now();
  emit({ event: 'connected', connected, failed, at: now() });
};

async function follow(sub: Subscriber) {
  let response: Response;
  try {
    response = await fetch(`${url}/api/v1/tasks/${taskId}/log-stream`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  } catch (error) {
    sub.error = String(error);
    failed++;
    announce();
    return;
  }
  sub.status = response.status;
  if (response.status !== 200) {
    sub.error = `${response.status} ${await response.text()}`;
    failed++;
    announce();
    return;
  }
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let first = true;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const at = now();
      buffer += decoder.decode(value, { stream: true });
      if (first && (buffer.includes(': following\n\n') || buffer.includes('data: '))) {
        // Following: the service has replayed what was stored and sends live lines from here (`: following`). The
        // `: connected` comment before it only means the request arrived; a run started then could reach a subscriber
        // still replaying, and its first lines would count that replay as latency.
        first = false;
        connected++;
        announce();
      }
      const end = buffer.lastIndexOf('\n\n');
      if (end < 0) continue;
      const frames = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      // Cheap scan instead of JSON.parse per frame: 1000 subscribers read millions of frames on a 2-core machine.
      let from = 0;
      for (;;) {
        const hit = frames.indexOf(marker, from);
        if (hit < 0) break;
        const seqStart = hit + marker.length;
        const seqEnd = frames.indexOf(' ', seqStart);
        const tsEnd = frames.indexOf(' ', seqEnd + 1);
        const seq = Number(frames.slice(seqStart, seqEnd));
        const emitted = Number(frames.slice(seqEnd + 1, tsEnd));
        if (seq !== sub.lastSeq + 1) {
          sub.outOfOrder++;
          if (gaps.length < 20) gaps.push(`after ${sub.lastSeq} came ${seq}`);
        }
        sub.lastSeq = seq;
        if (sub.lines === 0) sub.firstAt = at;
        sub.lastAt = at;
        sub.lines++;
        record(at - emitted);
        from = tsEnd;
      }
      if (frames.includes('event: cutoff')) sub.cutoff = true;
      if (frames.includes('"type":"done"') || frames.includes('"type":"error"')) sub.done = true;
    }
  } catch (error) {
    if (!controller.signal.aborted) sub.error = String(error);
  }
}

const subscribers: Subscriber[] = Array.from({ length: count }, () => ({
  status: 0,
  lines: 0,
  outOfOrder: 0,
  lastSeq: 0,
  firstAt: 0,
  lastAt: 0,
  done: false,
  cutoff: false,
  error: null,
}));
const timer = setTimeout(() => controller.abort(), timeoutMs);
// This process's own event-loop lag: how much of a measured latency is the subscribers' side running late.
const lags: number[] = [];
let tickAt = performance.now();
const lagTimer = setInterval(() => {
  const t = performance.now();
  if (connectedAt) lags.push(Math.max(0, t - tickAt - 10));
  tickAt = t;
}, 10);
const cpuBefore = process.cpuUsage();
const started = now();
await Promise.all(subscribers.map(follow));
clearTimeout(timer);
clearInterval(lagTimer);
lags.sort((a, b) => a - b);
const cpu = process.cpuUsage(cpuBefore);
const cpuMeasured = process.cpuUsage(cpuAtConnect);
const measuredMs = now() - connectedAt;

const rates = subscribers
  .filter((s) => s.lines > 1)
  .map((s) => (s.lines - 1) / ((s.lastAt - s.firstAt) / 1000))
  .sort((a, b) => a - b);
const pick = (values: number[], p: number) => (values.length ? values[Math.min(values.length - 1, Math.max(0, Math.ceil((p / 100) * values.length) - 1))]! : NaN);
emit({
  event: 'result',
  subscribers: count,
  connected,
  failed,
  timedOut: controller.signal.aborted,
  complete: subscribers.filter((s) => s.lines === expected && s.outOfOrder === 0).length,
  withDone: subscribers.filter((s) => s.done).length,
  cutoff: subscribers.filter((s) => s.cutoff).length,
  outOfOrder: subscribers.reduce((sum, s) => sum + s.outOfOrder, 0),
  linesMin: Math.min(...subscribers.map((s) => s.lines)),
  linesTotal: subscribers.reduce((sum, s) => sum + s.lines, 0),
  rateMin: rates[0] ?? NaN,
  rateP50: pick(rates, 50),
  rateMax: rates.at(-1) ?? NaN,
  firstAt: Math.min(...subscribers.filter((s) => s.lines).map((s) => s.firstAt)),
  lastAt: Math.max(...subscribers.filter((s) => s.lines).map((s) => s.lastAt)),
  latency: { p50: latencyPercentile(50), p90: latencyPercentile(90), p99: latencyPercentile(99), max: latencyMax, samples: latencyCount },
  gaps,
  // Subscribers whose stream ended with the terminal event but fewer lines than the run printed.
  shortWithDone: subscribers.filter((s) => s.done && s.lines < expected).length,
  loopLag: { p50: pick(lags, 50), p99: pick(lags, 99), max: lags.at(-1) ?? NaN },
  errors: [...new Set(subscribers.filter((s) => s.error).map((s) => s.error))].slice(0, 3),
  cpuMs: (cpu.user + cpu.system) / 1000,
  /** CPU of this process after every subscriber was connected, in % of one core. */
  cpuPercent: ((cpuMeasured.user + cpuMeasured.system) / 1000 / measuredMs) * 100,
  wallMs: now() - started,
});
process.exit(0);
