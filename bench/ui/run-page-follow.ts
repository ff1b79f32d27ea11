/**
 * The run page following a loud run, measured in a real browser against the target: "the run page follows a
 * run printing 20,000 lines/s with no animation frame gap over 200 ms and the main thread busy under half the time".
 *
 * Starts the service as `npm start` runs it (bench/ui/harness.ts: fresh DATA_DIR, embedded PGlite and IdP, the local
 * agent in its sandbox) with MAX_LOG_LINES_PER_RUN raised so that every line is stored and can be counted, signs in
 * through the login page, creates a `custom` test whose Python script prints --rate lines per second for --seconds
 * (paced every 5 ms; each line carries its number and the epoch ms it was printed at), starts it through
 * `POST /api/v1/tasks` and opens `/runs/{id}` at once. In the page (installed before the app's scripts):
 * requestAnimationFrame timestamps (frame gaps), PerformanceObserver('longtask'), and every 250 ms the newest line the
 * log view shows (its number and print time: how far behind the view is). From the driver, without touching the page
 * while the run prints: CDP `Performance.getMetrics` every 500 ms (`TaskDuration`: all the renderer main thread's
 * task time, short tasks too) and the run's status. After the run: the stored log read back over the log stream
 * (lines stored, their rate), and the page's record.
 *
 * The window measured is from the first line shown in the page to the script's end (while it prints), and again to the
 * view showing the last line (with the catch-up).
 *
 *   ./node_modules/.bin/bun bench/ui/run-page-follow.ts [--rate 20000] [--seconds 15] [--rounds 1]
 */
import { readFileSync } from 'node:fs';
import type { CDPSession, Page } from 'playwright-core';
import { argValue, median, percentile, runBench, startHarness, type Harness } from './harness.ts';

const rate = argValue('--rate', 20_000);
const seconds = argValue('--seconds', 15);
const rounds = argValue('--rounds', 1);

const script = `#!/usr/bin/env python3
# Prints RATE lines per second for SECONDS, paced every 5 ms: "<n> <epoch ms> INFO ...".
import sys, time
RATE, SECONDS = ${rate}, ${seconds}
total = int(RATE * SECONDS)
out = sys.stdout
start = time.time()
out.write("bench-start %d\\n" % int(start * 1000)); out.flush()
n = 0
while n < total:
    now = time.time()
    due = min(total, int((now - start) * RATE))
    if due > n:
        ms = int(now * 1000)
        out.write("".join("%d %d INFO GET /api/products/%d 200 in %d ms worker=%d\\n" % (i, ms, i % 977, i % 53, i % 8) for i in range(n + 1, due + 1)))
        out.flush()
        n = due
    time.sleep(0.005)
end = time.time()
out.write("bench-end printed=%d seconds=%.3f\\n" % (n, end - start)); out.flush()
`;

/** Installed before any script of the page. */
function instrument() {
  const record = {
    frames: [] as number[],
    longTasks: [] as [number, number][],
    /** [epoch ms, newest line number shown, its print time in epoch ms (0: not a numbered line), "N lines" in the status]. */
    shown: [] as [number, number, number, string][],
  };
  (window as unknown as { __follow: typeof record }).__follow = record;
  const origin = performance.timeOrigin;
  const frame = (t: number) => {
    record.frames.push(origin + t);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) record.longTasks.push([origin + entry.startTime, entry.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no long task timing in this browser
  }
  setInterval(() => {
    const rows = document.querySelectorAll('.live-log-row');
    const last = rows[rows.length - 1];
    const text = last?.querySelector('.live-log-text')?.textContent ?? '';
    const number = Number(last?.querySelector('.live-log-number')?.textContent ?? 0);
    const match = /^(\d+) (\d+) /.exec(text) ?? /^bench-start (\d+)/.exec(text);
    const printedAt = match ? Number(match[2] ?? match[1]) : /^bench-end/.test(text) ? -1 : 0;
    const status = document.querySelector('.live-log-status .muted')?.textContent ?? '';
    record.shown.push([Date.now(), number, printedAt, status.split(';')[0]!.trim()]);
  }, 250);
}

type Record_ = { frames: number[]; longTasks: [number, number][]; shown: [number, number, number, string][] };

interface Metric {
  at: number;
  /** /proc/stat: all cores' busy and total jiffies; the service process's CPU jiffies. */
  machineBusy: number;
  machineTotal: number;
  serviceCpu: number;
  taskDuration: number;
  scriptDuration: number;
  layoutDuration: number;
  recalcStyleDuration: number;
}

function jiffies(servicePid: number) {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  let serviceCpu = 0;
  try {
    // utime and stime: fields 14 and 15, counted after the command's closing parenthesis.
    const after = readFileSync(`/proc/${servicePid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    serviceCpu = Number(after[11]) + Number(after[12]);
  } catch {
    // gone
  }
  return { machineBusy: total - fields[3]! - (fields[4] ?? 0), machineTotal: total, serviceCpu };
}

let servicePid = 0;

async function metric(cdp: CDPSession): Promise<Metric> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  return { at: Date.now(), ...jiffies(servicePid), taskDuration: value('TaskDuration'), scriptDuration: value('ScriptDuration'), layoutDuration: value('LayoutDuration'), recalcStyleDuration: value('RecalcStyleDuration') };
}

async function* chunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** Lines stored for the task: the stored log read back over the log stream, to its `done` event. */
async function storedLog(harness: Harness, taskId: string): Promise<{ lines: number; lastId: number; startLine: string | null; endLine: string | null }> {
  const token = await (async () => {
    const { passwordGrant } = await import('../../tests/helpers/service-process.ts');
    return passwordGrant(harness.url, { username: 'admin', password: harness.password, clientSecret: harness.clientSecret });
  })();
  const response = await fetch(`${harness.url}/api/v1/tasks/${taskId}/log-stream?after=0`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
  if (!response.ok || !response.body) throw new Error(`log-stream: ${response.status}`);
  let lines = 0;
  let lastId = 0;
  let startLine: string | null = null;
  let endLine: string | null = null;
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of chunks(response.body)) {
    buffer += decoder.decode(chunk, { stream: true });
    let cut: number;
    let done = false;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = frame
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (!data) continue;
      const event = JSON.parse(data) as { type: string; id?: number; text?: string };
      if (event.type === 'log') {
        lines++;
        if (typeof event.id === 'number') lastId = event.id;
        if (event.text?.startsWith('bench-start')) startLine = event.text;
        if (event.text?.startsWith('bench-end')) endLine = event.text;
      } else if (event.type === 'done' || event.type === 'error') done = true;
    }
    if (done) break;
  }
  return { lines, lastId, startLine, endLine };
}

/**
 * A second subscriber in the driver, following the same log stream as the page: when each line reached a client,
 * to tell the view's own delay from the delivery's. Returns [receive epoch ms, newest line id, its print epoch ms][].
 */
function followStream(harness: Harness, taskId: string, signal: AbortSignal): Promise<[number, number, number][]> {
  return (async () => {
    const { passwordGrant } = await import('../../tests/helpers/service-process.ts');
    const token = await passwordGrant(harness.url, { username: 'admin', password: harness.password, clientSecret: harness.clientSecret });
    const seen: [number, number, number][] = [];
    try {
      const response = await fetch(`${harness.url}/api/v1/tasks/${taskId}/log-stream?after=0`, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        signal,
      });
      if (!response.ok || !response.body) throw new Error(`log-stream: ${response.status}`);
      const decoder = new TextDecoder();
      let buffer = '';
      let newestId = 0;
      let newestPrint = 0;
      for await (const chunk of chunks(response.body)) {
        buffer += decoder.decode(chunk, { stream: true });
        const cut = buffer.lastIndexOf('\n\n');
        if (cut < 0) continue;
        const complete = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        // The event's JSON as stream-hub.ts writes it: {"type":"log","source":…,"text":…,"id":…}.
        for (const match of complete.matchAll(/"text":"(\d+) (\d+) [^"]*","id":(\d+)/g)) {
          newestId = Math.max(newestId, Number(match[3]));
          newestPrint = Math.max(newestPrint, Number(match[2]));
        }
        if (newestId) seen.push([Date.now(), newestId, newestPrint]);
        if (complete.includes('"type":"done"')) break;
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    }
    return seen;
  })();
}

interface RoundResult {
  printed: number;
  scriptSeconds: number;
  stored: number;
  storedRate: number;
  printing: WindowFigures;
  withCatchUp: WindowFigures;
  lagP50: number;
  lagP95: number;
  lagMax: number;
  catchUpMs: number | null;
  behindLinesP50: number;
  behindLinesP95: number;
  behindLinesMax: number;
  streamLagP50: number;
  streamLagP95: number;
  lastShown: number;
  lastStatus: string;
  frameGapsOver200Total: number;
}

interface WindowFigures {
  seconds: number;
  frames: number;
  fps: number;
  maxGap: number;
  p99Gap: number;
  gapsOver200: number;
  gapsOver50: number;
  longTaskCount: number;
  longTaskMax: number;
  longTaskBusy: number;
  cdpBusy: number | null;
  cdpScript: number | null;
  cdpLayoutStyle: number | null;
  /** All cores busy in the window, this benchmark included (share of the whole machine), and the service's CPU in cores. */
  machineBusy: number | null;
  serviceCores: number | null;
}

function windowFigures(record: Record_, metrics: Metric[], from: number, to: number): WindowFigures {
  const frames = record.frames.filter((t) => t >= from && t <= to);
  const gaps: number[] = [];
  for (let i = 1; i < frames.length; i++) gaps.push(frames[i]! - frames[i - 1]!);
  // The gap from the window's start to its first frame, and from its last frame to the end, count too.
  if (frames.length) {
    gaps.push(frames[0]! - from);
    gaps.push(to - frames[frames.length - 1]!);
  }
  let busy = 0;
  let count = 0;
  let longest = 0;
  for (const [start, duration] of record.longTasks) {
    const overlap = Math.min(to, start + duration) - Math.max(from, start);
    if (overlap > 0) {
      busy += overlap;
      count++;
      longest = Math.max(longest, duration);
    }
  }
  const span = to - from;
  // CDP samples nearest inside the window.
  const inside = metrics.filter((m) => m.at >= from && m.at <= to);
  let cdpBusy: number | null = null;
  let cdpScript: number | null = null;
  let cdpLayoutStyle: number | null = null;
  let machineBusy: number | null = null;
  let serviceCores: number | null = null;
  if (inside.length >= 2) {
    const a = inside[0]!;
    const b = inside[inside.length - 1]!;
    const wall = (b.at - a.at) / 1000;
    cdpBusy = (b.taskDuration - a.taskDuration) / wall;
    cdpScript = (b.scriptDuration - a.scriptDuration) / wall;
    cdpLayoutStyle = (b.layoutDuration - a.layoutDuration + b.recalcStyleDuration - a.recalcStyleDuration) / wall;
    machineBusy = (b.machineBusy - a.machineBusy) / Math.max(1, b.machineTotal - a.machineTotal);
    // Jiffies are 1/100 s (USER_HZ).
    serviceCores = (b.serviceCpu - a.serviceCpu) / 100 / wall;
  }
  return {
    seconds: span / 1000,
    frames: frames.length,
    fps: frames.length / (span / 1000),
    maxGap: gaps.length ? Math.max(...gaps) : span,
    p99Gap: gaps.length ? percentile(gaps, 99) : span,
    gapsOver200: gaps.filter((g) => g > 200).length,
    gapsOver50: gaps.filter((g) => g > 50).length,
    longTaskCount: count,
    longTaskMax: longest,
    longTaskBusy: busy / span,
    cdpBusy,
    cdpScript,
    cdpLayoutStyle,
    machineBusy,
    serviceCores,
  };
}

async function round(harness: Harness, page: Page, testId: string): Promise<RoundResult> {
  const cdp = await page.context().newCDPSession(page);
  const task = await harness.api<{ id: string }>('POST', '/tasks', { testId });
  const stopFollowing = new AbortController();
  const following = followStream(harness, task.id, stopFollowing.signal);
  await page.goto(`/runs/${task.id}`, { waitUntil: 'commit' });
  await cdp.send('Performance.enable', { timeDomain: 'timeTicks' });
  await page.locator('.live-log-viewport').waitFor({ timeout: 30_000 });

  // While the run prints: CDP metrics and the run's status, nothing evaluated in the page.
  const metrics: Metric[] = [];
  let status = 'pending';
  const deadline = Date.now() + (seconds + 120) * 1000;
  let nextStatus = 0;
  while (!['completed', 'failed', 'cancelled'].includes(status)) {
    metrics.push(await metric(cdp));
    if (Date.now() >= nextStatus) {
      status = (await harness.api<{ status: string }>('GET', `/tasks/${task.id}`)).status;
      nextStatus = Date.now() + 1000;
    }
    if (Date.now() > deadline) throw new Error(`run ${task.id} still ${status} after ${seconds + 120} s`);
    await Bun.sleep(500);
  }
  if (status !== 'completed') throw new Error(`the run ended ${status}`);

  // Catch-up: until the view shows the script's last line (or 60 s).
  const stored = await storedLog(harness, task.id);
  const catchUpDeadline = Date.now() + 60_000;
  while (Date.now() < catchUpDeadline) {
    metrics.push(await metric(cdp));
    const last = await page.evaluate(() => {
      const shown = (window as unknown as { __follow: Record_ }).__follow.shown;
      return shown[shown.length - 1] ?? null;
    });
    if (last && last[1] >= stored.lastId) break;
    await Bun.sleep(500);
  }
  metrics.push(await metric(cdp));
  stopFollowing.abort();
  const delivered = await following;
  const record = await page.evaluate(() => (window as unknown as { __follow: Record_ }).__follow);
  await cdp.detach();

  const endMatch = /printed=(\d+) seconds=([\d.]+)/.exec(stored.endLine ?? '');
  if (!endMatch) throw new Error(`no bench-end line stored (${stored.lines} lines stored, last id ${stored.lastId})`);
  const printed = Number(endMatch[1]);
  const scriptSeconds = Number(endMatch[2]);
  const startMatch = /bench-start (\d+)/.exec(stored.startLine ?? '');
  if (!startMatch) throw new Error('no bench-start line stored');
  const scriptEnd = Number(startMatch[1]) + scriptSeconds * 1000;
  const numbered = record.shown.filter((s) => s[2] > 0 && s[1] >= 2);
  if (numbered.length === 0) throw new Error('the page never showed a line of the run');
  const firstShown = numbered[0]![0];
  if (firstShown >= scriptEnd) throw new Error('the page showed the first line only after the script ended');
  // The first sample (every 250 ms) where the view shows the last stored line.
  const catchUpAt = record.shown.find((s) => s[1] >= stored.lastId)?.[0] ?? null;
  const printingSamples = numbered.filter((s) => s[0] <= scriptEnd);
  const lags = printingSamples.map((s) => s[0] - s[2]);
  // How far the view was behind the driver's own subscriber at each sample while the script printed.
  const behind: number[] = [];
  const streamLags: number[] = [];
  let at = -1;
  for (const sample of printingSamples) {
    while (at + 1 < delivered.length && delivered[at + 1]![0] <= sample[0]) at++;
    if (at < 0) continue;
    behind.push(Math.max(0, delivered[at]![1] - sample[1]));
    streamLags.push(sample[0] - delivered[at]![2]);
  }
  const end = Math.max(scriptEnd, catchUpAt ?? record.shown[record.shown.length - 1]![0]);
  const last = record.shown[record.shown.length - 1]!;
  const allGaps: number[] = [];
  for (let i = 1; i < record.frames.length; i++) allGaps.push(record.frames[i]! - record.frames[i - 1]!);
  return {
    printed,
    scriptSeconds,
    stored: stored.lines,
    storedRate: stored.lines / scriptSeconds,
    printing: windowFigures(record, metrics, firstShown, scriptEnd),
    withCatchUp: windowFigures(record, metrics, firstShown, end),
    lagP50: median(lags),
    lagP95: percentile(lags, 95),
    lagMax: Math.max(...lags),
    catchUpMs: catchUpAt === null ? null : catchUpAt - scriptEnd,
    behindLinesP50: median(behind),
    behindLinesP95: percentile(behind, 95),
    behindLinesMax: Math.max(...behind),
    streamLagP50: median(streamLags),
    streamLagP95: percentile(streamLags, 95),
    lastShown: last[1],
    lastStatus: last[3],
    frameGapsOver200Total: allGaps.filter((g) => g > 200).length,
  };
}

async function main(): Promise<string> {
  const out: string[] = [];
  const print = (line: string) => out.push(line);
  const harness = await startHarness({ env: { MAX_LOG_LINES_PER_RUN: String(Math.max(1_000_000, Math.ceil(rate * seconds * 1.5))) } });
  servicePid = harness.service.pid;
  const test = await harness.api<{ id: string }>('POST', '/tests', { name: `prints ${rate} lines/s`, tool: 'custom', script });
  const { page } = await harness.signedInPage();
  await page.context().addInitScript(instrument);
  const results: RoundResult[] = [];
  for (let i = 0; i < rounds; i++) {
    const result = await round(harness, page, test.id);
    console.error(`bench: round ${i + 1}: ${JSON.stringify(result)}`);
    results.push(result);
  }

  const pct = (value: number | null) => (value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`);
  const n0 = (value: number) => Math.round(value).toLocaleString('en');
  print(`\nRun page following a run printing ${n0(rate)} lines/s for ${seconds} s (targets: no frame gap over 200 ms, main thread busy under 50%)\n`);
  print('| round | window | s | frames/s | max frame gap ms | p99 gap ms | gaps > 200 ms | gaps > 50 ms | long tasks (max ms) | busy: long tasks | busy: CDP TaskDuration | of which script / layout+style | machine busy (all cores, this included) | service CPU, cores |');
  print('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  results.forEach((r, i) => {
    for (const [name, w] of [['while printing', r.printing], ['to the last line shown', r.withCatchUp]] as const) {
      print(
        `| ${i + 1} | ${name} | ${w.seconds.toFixed(1)} | ${w.fps.toFixed(1)} | ${n0(w.maxGap)} | ${n0(w.p99Gap)} | ${w.gapsOver200} | ${w.gapsOver50} | ${w.longTaskCount} (${n0(w.longTaskMax)}) | ${pct(w.longTaskBusy)} | ${pct(w.cdpBusy)} | ${pct(w.cdpScript)} / ${pct(w.cdpLayoutStyle)} | ${pct(w.machineBusy)} | ${w.serviceCores === null ? 'n/a' : w.serviceCores.toFixed(2)} |`,
      );
    }
  });
  print('\n| round | printed | script s | stored lines | stored lines/s | newest line shown: behind its print, p50 / p95 / max ms | newest line delivered to a 2nd subscriber: behind its print, p50 / p95 ms | view behind that subscriber, lines p50 / p95 / max | last line shown after the script ended, ms | last line number shown / stored | status line at the end |');
  print('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  results.forEach((r, i) => {
    print(
      `| ${i + 1} | ${n0(r.printed)} | ${r.scriptSeconds.toFixed(1)} | ${n0(r.stored)} | ${n0(r.storedRate)} | ${n0(r.lagP50)} / ${n0(r.lagP95)} / ${n0(r.lagMax)} | ${n0(r.streamLagP50)} / ${n0(r.streamLagP95)} | ${n0(r.behindLinesP50)} / ${n0(r.behindLinesP95)} / ${n0(r.behindLinesMax)} | ${r.catchUpMs === null ? 'not within 60 s' : n0(r.catchUpMs)} | ${n0(r.lastShown)} / ${n0(r.stored)} | ${r.lastStatus} |`,
    );
  });
  return out.join('\n');
}

await runBench(main);
