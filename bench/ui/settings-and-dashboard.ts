/**
 * The settings pages and a dashboard, timed in a real browser against the issue's targets: "each settings page usable
 * under 1 s on loopback with 1,000 audit entries and 200 deliveries; the dashboard page draws 8 panels of one hour at
 * 1 s resolution from 4 machines in under 500 ms".
 *
 * Starts the service as `npm start` runs it (bench/ui/harness.ts: fresh DATA_DIR, embedded PGlite and IdP, the local
 * agent) with WEBHOOK_ALLOW_HOSTS=127.0.0.1 and a webhook receiver on loopback, then seeds through the API: a test and
 * one run of it (done on the local agent), 3 API tokens, 10 environment variables, one webhook and 200
 * `POST /webhooks/{id}/test` (waited for until all 200 are delivered), environment variable writes until the audit log
 * holds at least --audit entries (every write above audits too), and a dashboard of 8 line panels
 * (`metric=…&run=<run>&by=machine&step=1s`: 8 metrics, each 4 series of 3,600 points). The hour of metrics goes in
 * while the service is stopped (PGlite serves one process): 4 machines x 3,600 one-second points, each with its latency
 * histogram of 50 requests, inserted into task_metric_points as tests/helpers/metric-points.ts does, and the run's
 * started_at/finished_at set to that hour; then the service is started again on the same DATA_DIR and port.
 *
 * In Chromium (bench/ui/harness.ts: the headless shell when installed), signed in once through the embedded IdP's
 * login page, per round and page: a navigation with a warm cache (the signed-in page navigated again) and one with a
 * cold cache (a new context, the signed-in user's sessionStorage put back before the app reads it, so no HTTP cache,
 * no compiled code and no open connection; its page opened, and the browser quiet again, before the navigation starts:
 * the full browser opens each context's window with browser UI of its own). A script installed
 * before the app's notes when the page is usable (its h1, no loading spinner left, and its main table or form in the
 * document) and the frame after (painted); times are from the navigation's start in the page's clock. On
 * /settings/webhooks the delivery history is a separate click ("Deliveries"): timed from the click to its first 25
 * deliveries painted, and added to the page's own time. On /dashboards/{id}?run=<run> the mark is all 8 panels'
 * uPlot canvases in the document with their data (the chart's hidden caption says "N points up to …"), then the frame
 * after; the dashboard runs in a 1280x1600 viewport so all 8 panels are near the viewport (panels load as they near
 * it). Each canvas is checked for drawn pixels after the round. A second dashboard holds the same 8 panels without
 * `step=1s` (the API's default step, range / 250: 15 s over the hour), for comparison; and the 8 panels' queries are
 * timed from the driver alone (sent together, and one after another), the service's share of a dashboard's draw.
 * Each round also opens both dashboards from inside the running app (a settings page loaded, then the router sent to the
 * dashboard with history.pushState, as a link does), timed to the 8 charts drawn. `--profile` instead records one warm
 * navigation's CPU profile, timeline and resource waterfall and prints where its time went.
 *
 *   ./node_modules/.bin/bun bench/ui/settings-and-dashboard.ts [--rounds 10] [--audit 1000] [--deliveries 200] [--cold-at-once]
 */
import type { BrowserContext, Page } from 'playwright-core';
import { join } from 'node:path';
import { LatencyHistogram } from '../../core/domain/metrics/histogram.ts';
import { lockPglite } from '../../adapters/db/pglite-lock.ts';
import { openSqlSession } from '../../adapters/db/backup/sql-session.ts';
import { bumpRunPoints } from '../../core/services/metrics/metric-changes.ts';
import { ENV } from '../../tests/e2e/service-info.ts';
import { passwordGrant, type ServiceProcess } from '../../tests/helpers/service-process.ts';
import { seededRandom } from '../../tests/helpers/seeded-random.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../tests/helpers/webhook-receiver.ts';
import { argValue, browserProcesses, cpuBetween, machineLoad, median, percentile, runBench, startHarness } from './harness.ts';

const rounds = argValue('--rounds', 10);
const auditTarget = argValue('--audit', 1000);
const deliveryCount = argValue('--deliveries', 200);
const seconds = 3600;
const machines = ['a', 'b', 'c', 'd'].map((m) => `00000000-0000-4000-8000-00000000000${m}`);
const panelMetrics = ['request_rate', 'requests', 'errors', 'error_ratio', 'latency_p50', 'latency_p95', 'latency_p99', 'latency_max'];

/** The pages measured, with the h1 each shows. */
const settingsPages: [path: string, h1: string][] = [
  ['/settings/api-tokens', 'API tokens'],
  ['/settings/webhooks', 'Webhooks'],
  ['/settings/members', 'Members'],
  ['/settings/access-controls', 'Access controls'],
  ['/settings/workspace', 'Workspace'],
  ['/settings/env-vars', 'Environment variables'],
  ['/settings/mcp-servers', 'MCP servers'],
  ['/audit-log', 'Audit log'],
];

/** Installed before any script of the page: notes when the page is usable (per path), and the frame after. */
function instrument(arg: { pages: [string, string][]; dashboardNames: string[]; panels: number }) {
  const state: { usable: number | null; painted: number | null; detail: string | null } = { usable: null, painted: null, detail: null };
  (window as unknown as { __bench: typeof state }).__bench = state;
  const h1 = () => document.querySelector('main h1, h1')?.textContent?.trim() ?? '';
  const loading = () => document.querySelector('.loading') !== null;
  const count = (selector: string) => document.querySelectorAll(selector).length;
  const path = location.pathname;
  const expected = arg.pages.find(([p]) => p === path)?.[1];
  const ready = (): string | null => {
    if (path.startsWith('/dashboards/')) {
      if (!arg.dashboardNames.includes(h1()) || loading()) return null;
      const captions = Array.from(document.querySelectorAll('.dashboard-panel .time-series-chart caption')).filter((c) => / points up to /.test(c.textContent ?? ''));
      const canvases = count('.dashboard-panel .time-series-chart-plot canvas');
      return captions.length >= arg.panels && canvases >= arg.panels ? `${canvases} canvases` : null;
    }
    if (!expected || h1() !== expected || loading()) return null;
    const rows = count('main table tbody tr');
    const empty = count('section.empty-state');
    const forms = count('main form');
    switch (path) {
      case '/settings/access-controls':
        return count('form table.matrix tbody tr') > 0 ? `matrix ${count('form table.matrix tbody tr')} rows` : null;
      case '/settings/workspace':
        return forms > 0 && rows > 0 ? `form, usage ${rows} rows` : null;
      case '/settings/env-vars':
        return forms > 0 && (rows > 0 || empty > 0) ? `form, ${rows} rows, ${empty} empty state` : null;
      case '/audit-log':
        return rows > 0 ? `${rows} rows` : null;
      default:
        return rows > 0 || empty > 0 ? `${rows} rows, ${empty} empty state` : null;
    }
  };
  const observer = new MutationObserver(() => {
    if (state.usable !== null) return;
    const detail = ready();
    if (!detail) return;
    state.usable = performance.now();
    state.detail = detail;
    observer.disconnect();
    // The next frame's callback runs before its paint; a task queued from it runs after that paint.
    requestAnimationFrame(() => setTimeout(() => (state.painted = performance.now()), 0));
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

/** Puts the signed-in user's sessionStorage into a new context's pages before the app reads it. */
function restoreSession(arg: { origin: string; entries: [string, string][] }) {
  if (location.origin !== arg.origin) return;
  for (const [key, value] of arg.entries) if (sessionStorage.getItem(key) === null) sessionStorage.setItem(key, value);
}

interface CpuProfile {
  nodes: { id: number; children?: number[]; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * A Chrome DevTools CPU profile by function (name, file, line and column), most time first: its own samples (self), and
 * its samples with its callees' (inclusive, counted once per function on each sample's stack).
 */
function profileTops(profile: CpuProfile): { self: [string, number][]; inclusive: [string, number][] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const keyOf = (id: number) => {
    const frame = byId.get(id)!.callFrame;
    return `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}:${frame.columnNumber}`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  profile.samples.forEach((id, n) => {
    const ms = (profile.timeDeltas[n] ?? 0) / 1000;
    self.set(keyOf(id), (self.get(keyOf(id)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const key = keyOf(at);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  });
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return { self: sorted(self), inclusive: sorted(inclusive) };
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string } };
}

/** The renderer main thread's tasks over `minMs`, in order from the document's first parse, with their biggest parts. */
function mainThreadTasks(events: TraceEvent[], minMs: number): string[] {
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain' && events.some((e) => e.pid === event.pid && e.name === 'ParseHTML'));
  if (!main) return ['(no renderer main thread in the trace)'];
  const navigationStart = events.find((event) => event.name === 'ParseHTML' && event.pid === main.pid)?.ts;
  if (navigationStart === undefined) return ['(no HTML parse in the trace)'];
  const onMain = events.filter((event) => event.ph === 'X' && event.tid === main.tid && event.pid === main.pid && event.dur);
  const out: string[] = [];
  for (const task of onMain.filter((event) => event.name === 'RunTask' && event.dur! > minMs * 1000 && event.ts >= navigationStart)) {
    const inside = onMain.filter((event) => event !== task && event.ts >= task.ts && event.ts + event.dur! <= task.ts + task.dur! && event.name !== 'RunTask');
    const top = new Map<string, number>();
    for (const event of inside) {
      const what = event.name === 'EvaluateScript' || event.name === 'v8.compileModule' || event.name === 'v8.compile' ? `${event.name}(${(event.args?.data?.url ?? '').split('/').pop()})` : event.name;
      top.set(what, Math.max(top.get(what) ?? 0, event.dur! / 1000));
    }
    const names = [...top].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ');
    out.push(`  task at ${((task.ts - navigationStart) / 1000).toFixed(0).padStart(5)} ms for ${(task.dur! / 1000).toFixed(1).padStart(6)} ms: ${names}`);
  }
  return out;
}

interface Sample {
  usable: number;
  painted: number;
  detail: string;
  /** API calls answered before the page was usable, when the last of them ended, and the slowest one. */
  apiCalls: number;
  lastApiEnd: number;
  slowestCall: string;
  slowestMs: number;
  /** Webhooks only: from the "Deliveries" click to the history's rows painted. */
  history?: number;
}

async function navigate(page: Page, url: string, path: string, webhookUrl: string | null): Promise<Sample> {
  await page.goto(`${url}${path}`, { waitUntil: 'commit' });
  try {
    await page.waitForFunction(() => (window as unknown as { __bench?: { painted: number | null } }).__bench?.painted != null, null, { timeout: 30_000, polling: 20 });
  } catch (error) {
    const seen = await page
      .evaluate(() => ({
        h1: document.querySelector('h1')?.textContent ?? null,
        loading: Array.from(document.querySelectorAll('.loading')).map((e) => e.textContent),
        rows: document.querySelectorAll('main table tbody tr').length,
        forms: document.querySelectorAll('main form').length,
        emptyStates: document.querySelectorAll('section.empty-state').length,
      }))
      .catch(() => null);
    throw new Error(`${path} did not become usable in 30 s (now at ${page.url()}, page shows ${JSON.stringify(seen)}): ${(error as Error).message}`);
  }
  const sample: Sample = await page.evaluate(() => {
    const s = (window as unknown as { __bench: { usable: number; painted: number; detail: string } }).__bench;
    // The API calls answered before the page was usable: when the last answer ended, and the slowest call.
    const calls = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
      (entry) => entry.name.includes('/api/v1/') && entry.responseEnd > 0 && entry.responseEnd <= s.usable,
    );
    const slowest = calls.reduce<PerformanceResourceTiming | null>((a, b) => (!a || b.duration > a.duration ? b : a), null);
    const shortName = (name: string) => {
      const u = new URL(name);
      return u.pathname.replace(/^\/api\/v1/, '').replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}') + (u.searchParams.get('metric') ? ` (${u.searchParams.get('metric')})` : '');
    };
    return {
      usable: s.usable,
      painted: s.painted,
      detail: s.detail,
      apiCalls: calls.length,
      lastApiEnd: calls.reduce((m, c) => Math.max(m, c.responseEnd), 0),
      slowestCall: slowest ? shortName(slowest.name) : '',
      slowestMs: slowest ? slowest.duration : 0,
    };
  });
  if (webhookUrl) {
    // The delivery history: timed in the page from the click's event to its table's rows painted.
    await page.evaluate(() => {
      const mark = { clicked: 0, painted: 0 };
      (window as unknown as { __history: typeof mark }).__history = mark;
      const button = document.querySelector<HTMLButtonElement>('button[aria-label^="Deliveries of "]');
      if (!button) throw new Error('no Deliveries button');
      const done = () => {
        const rows = document.querySelectorAll('#webhook-history table tbody tr').length;
        return rows > 0 && document.querySelector('#webhook-history .loading') === null;
      };
      const observer = new MutationObserver(() => {
        if (!done()) return;
        observer.disconnect();
        requestAnimationFrame(() => setTimeout(() => (mark.painted = performance.now()), 0));
      });
      observer.observe(document.body, { childList: true, subtree: true });
      mark.clicked = performance.now();
      button.click();
    });
    await page.waitForFunction(() => (window as unknown as { __history: { painted: number } }).__history.painted > 0, null, { timeout: 30_000, polling: 20 });
    const history = await page.evaluate(() => {
      const mark = (window as unknown as { __history: { clicked: number; painted: number } }).__history;
      return mark.painted - mark.clicked;
    });
    const rows = await page.locator('#webhook-history table tbody tr').count();
    sample.history = history;
    sample.detail += `; history ${rows} rows`;
  }
  if (path.startsWith('/dashboards/')) {
    // Every chart drew: each canvas has painted pixels.
    const blank = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLCanvasElement>('.dashboard-panel .time-series-chart-plot canvas')).filter((canvas) => {
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return false;
        return true;
      }).length,
    );
    if (blank > 0) throw new Error(`${blank} dashboard canvases are blank`);
  }
  return sample;
}

/** One hour of 1 s points from 4 machines for the run, as tests/helpers/metric-points.ts writes them. */
function pointRows(run: { taskId: string; workspaceId: string; testId: string }, end: number) {
  const random = seededRandom(11).next;
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const rows: Record<string, unknown>[] = [];
  for (let s = 0; s < seconds; s++) {
    const t = end - seconds + s + 1;
    for (const machineId of machines) {
      const histogram = new LatencyHistogram();
      for (let i = 0; i < 50; i++) histogram.record(Math.exp(3 + 0.6 * gaussian()));
      rows.push({
        task_id: run.taskId,
        workspace_id: run.workspaceId,
        machine_id: machineId,
        test_id: run.testId,
        started_at: new Date((t - 1) * 1000).toISOString(),
        ended_at: new Date(t * 1000).toISOString(),
        requests: 50,
        errors: random() < 0.05 ? 1 : 0,
        p50: histogram.percentile(50),
        p95: histogram.percentile(95),
        p99: histogram.percentile(99),
        histogram: histogram.encode(),
        labels: { run: run.taskId, machine: machineId, test: run.testId },
      });
    }
  }
  return rows;
}

async function main(): Promise<string> {
  const out: string[] = [];
  const print = (line: string) => out.push(line);
  const log = (line: string) => console.error(`bench: ${line}`);

  const receiver: WebhookReceiver = startWebhookReceiver();
  let restarted: ServiceProcess | null = null;
  const killRestarted = () => {
    if (!restarted) return;
    try {
      process.kill(restarted.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killRestarted);
  // The harness's own handlers stop what it started; this one stops the service started again below.
  const onSignal = () => {
    if (restarted) {
      try {
        process.kill(restarted.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    void receiver.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, onSignal);

  try {
    const harness = await startHarness({ env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    const { url } = harness;
    const dataDir = process.env[ENV.dataDir]!;
    let bearer = await passwordGrant(url, { username: 'admin', password: harness.password, clientSecret: harness.clientSecret });
    const listCount = async (path: string) => {
      let total = 0;
      let cursor = '';
      for (;;) {
        const response = await fetch(`${url}/api/v1${path}${path.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
          headers: { authorization: `Bearer ${bearer}` },
        });
        if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
        total += ((await response.json()) as unknown[]).length;
        cursor = response.headers.get('x-next-cursor') ?? '';
        if (!cursor) return { total };
      }
    };

    // --- seed through the API ---
    const seedStarted = performance.now();
    const workspace = await harness.api<{ id: string }>('GET', '/workspace');
    const test = await harness.api<{ id: string }>('POST', '/tests', { name: 'dashboard bench', tool: 'custom', script: 'echo "one hour of metrics"\n' });
    const task = await harness.api<{ id: string }>('POST', '/tasks', { testId: test.id });
    for (let i = 0; i < 3; i++) await harness.api('POST', '/api-tokens', { name: `bench token ${i + 1}` });
    for (let i = 0; i < 10; i++) await harness.api('PUT', `/env-vars/BENCH_VAR_${i}`, { value: `value ${i}` });
    const webhook = await harness.api<{ id: string }>('POST', '/webhooks', {
      url: `${receiver.url}/hook`,
      events: ['test.started', 'test.completed', 'test.failed'],
      description: 'the benchmark receiver',
    });
    for (let i = 0; i < deliveryCount; i += 4) {
      await Promise.all(Array.from({ length: Math.min(4, deliveryCount - i) }, () => harness.api('POST', `/webhooks/${webhook.id}/test`, {})));
    }
    const deliveryDeadline = Date.now() + 180_000;
    for (;;) {
      const pings = receiver.received.filter((hook) => hook.body.event === 'test.ping').length;
      if (pings >= deliveryCount) {
        const deliveries = await (async () => {
          let delivered = 0;
          let total = 0;
          let cursor = '';
          for (;;) {
            const response = await fetch(`${url}/api/v1/webhooks/${webhook.id}/deliveries?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
              headers: { authorization: `Bearer ${bearer}` },
            });
            const page = (await response.json()) as { state: string }[];
            total += page.length;
            delivered += page.filter((d) => d.state === 'delivered').length;
            cursor = response.headers.get('x-next-cursor') ?? '';
            if (!cursor) return { delivered, total };
          }
        })();
        if (deliveries.delivered >= deliveryCount) {
          log(`${deliveries.delivered} of ${deliveries.total} deliveries delivered (receiver got ${pings} test.ping)`);
          break;
        }
      }
      if (Date.now() > deliveryDeadline) throw new Error(`only ${pings} of ${deliveryCount} test.ping deliveries received in 3 minutes`);
      await Bun.sleep(250);
    }
    for (let round = 0; ; round++) {
      const { total } = await listCount('/audit-log');
      if (total >= auditTarget) {
        log(`audit log: ${total} entries`);
        break;
      }
      const missing = auditTarget - total;
      for (let i = 0; i < missing; i += 4) {
        await Promise.all(
          Array.from({ length: Math.min(4, missing - i) }, (_, k) => harness.api('PUT', `/env-vars/BENCH_VAR_${(i + k) % 10}`, { value: `value ${round}.${i + k}` })),
        );
      }
    }
    const runDeadline = Date.now() + 120_000;
    for (;;) {
      const view = await harness.api<{ status: string }>('GET', `/tasks/${task.id}`);
      if (['completed', 'failed', 'cancelled'].includes(view.status)) break;
      if (Date.now() > runDeadline) throw new Error(`run ${task.id} still ${view.status} after 2 minutes`);
      await Bun.sleep(200);
    }
    const dashboardName = 'Eight panels, 1 h at 1 s, 4 machines';
    const dashboard = await harness.api<{ id: string }>('POST', '/dashboards', {
      name: dashboardName,
      panels: panelMetrics.map((metric) => ({ title: metric, query: `metric=${metric}&run=${task.id}&by=machine&step=1s`, chart: 'line' })),
    });
    // The same panels at the API's default step (range / 250, 15 s here): the hour of 1 s points read, 240 steps drawn.
    const coarseName = 'Eight panels, 1 h, default step, 4 machines';
    const coarse = await harness.api<{ id: string }>('POST', '/dashboards', {
      name: coarseName,
      panels: panelMetrics.map((metric) => ({ title: metric, query: `metric=${metric}&run=${task.id}&by=machine`, chart: 'line' })),
    });
    log(`seeded through the API in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

    // --- one hour of metrics, written while the service is stopped (PGlite serves one process) ---
    await harness.service.stop();
    const pgliteDir = join(dataDir, 'pglite');
    const release = lockPglite(pgliteDir, 'bench/ui/settings-and-dashboard.ts seeding metrics');
    const end = Math.floor(Date.now() / 1000) - 60;
    try {
      const session = await openSqlSession({ pgliteDir });
      try {
        const insertStarted = performance.now();
        const rows = pointRows({ taskId: task.id, workspaceId: workspace.id, testId: test.id }, end);
        for (let i = 0; i < rows.length; i += 2000) {
          await session.query(
            `insert into task_metric_points (task_id, workspace_id, machine_id, test_id, started_at, ended_at, requests, errors, p50, p95, p99, histogram, labels)
             select task_id, workspace_id, machine_id, test_id, started_at, ended_at, requests, errors, p50, p95, p99, histogram, labels
             from json_to_recordset($1::json) as r(task_id uuid, workspace_id uuid, machine_id uuid, test_id uuid, started_at timestamptz, ended_at timestamptz,
               requests integer, errors integer, p50 float8, p95 float8, p99 float8, histogram jsonb, labels jsonb)`,
            [JSON.stringify(rows.slice(i, i + 2000))],
          );
        }
        // The run's change counter, as storeMetricInterval moves it (this session takes $n placeholders).
        const [bump, bumpParams] = bumpRunPoints(task.id);
        await session.query(bump.replace('?', '$1'), bumpParams);
        await session.query(`update tasks set created_at = $2, started_at = $3, finished_at = $4 where id = $1`, [
          task.id,
          new Date((end - seconds - 1) * 1000).toISOString(),
          new Date((end - seconds) * 1000).toISOString(),
          new Date(end * 1000).toISOString(),
        ]);
        log(`inserted ${rows.length} metric points in ${((performance.now() - insertStarted) / 1000).toFixed(1)} s`);
      } finally {
        await session.close();
      }
    } finally {
      release();
    }
    restarted = await harness.service.restart();
    bearer = await passwordGrant(url, { username: 'admin', password: harness.password, clientSecret: harness.clientSecret });

    // The data as the panels will ask for it.
    const check = await fetch(`${url}/api/v1/metrics/query?metric=latency_p95&run=${task.id}&by=machine&step=1s&start=${end - seconds - 1}&end=${end + 1}`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    const answer = (await check.json()) as { series: { points: unknown[] }[] };
    if (!check.ok || answer.series.length !== 4) throw new Error(`metrics check: ${check.status} ${JSON.stringify(answer).slice(0, 300)}`);
    log(`metrics check: ${answer.series.length} series of ${answer.series.map((s) => s.points.length).join(', ')} points`);
    // The 8 panels' queries from the driver, in parallel as the page sends them: the service's share of the draw.
    const apiOnly = async (step: string) => {
      const requests = panelMetrics.map((metric) => `${url}/api/v1/metrics/query?metric=${metric}&run=${task.id}&by=machine${step}&start=${end - seconds - 1}&end=${end + 1}`);
      const call = (request: string) => fetch(request, { headers: { authorization: `Bearer ${bearer}` } }).then((r) => r.text());
      const together: number[] = [];
      const oneByOne: number[] = [];
      let bytes = 0;
      // The first round is the service computing the answers (it keeps a finished run's answers, so later rounds read them).
      let first = 0;
      for (let i = 0; i < rounds + 1; i++) {
        let started = performance.now();
        const bodies = await Promise.all(requests.map(call));
        if (i > 0) together.push(performance.now() - started);
        else first = performance.now() - started;
        bytes = bodies.reduce((sum, body) => sum + body.length, 0);
        started = performance.now();
        for (const request of requests) await call(request);
        if (i > 0) oneByOne.push(performance.now() - started);
      }
      return { together, oneByOne, bytes, first };
    };
    const apiFine = await apiOnly('&step=1s');
    const apiCoarse = await apiOnly('');
    const audit = (await listCount('/audit-log')).total;
    const deliveries = (await listCount(`/webhooks/${webhook.id}/deliveries`)).total;

    // --- the browser ---
    const { context: warmContext, page: warmPage } = await harness.signedInPage();
    const entries = await warmPage.evaluate(() => Object.entries(sessionStorage));
    if (!entries.some(([key]) => key.startsWith('oidc.user:'))) throw new Error('no OIDC user in sessionStorage after sign-in');
    const instrumentArg = { pages: settingsPages, dashboardNames: [dashboardName, coarseName], panels: panelMetrics.length };
    await warmContext.addInitScript(instrument, instrumentArg);

    const dashboardPath = `/dashboards/${dashboard.id}?run=${task.id}`;
    const coarsePath = `/dashboards/${coarse.id}?run=${task.id}`;
    const targets: [string, string | null][] = [
      ...settingsPages.map(([path]) => [path, path === '/settings/webhooks' ? `${receiver.url}/hook` : null] as [string, string | null]),
      [dashboardPath, null],
      [coarsePath, null],
    ];
    const nameOf = (path: string) =>
      path === dashboardPath ? '/dashboards/{id} step 1 s (8 charts drawn)' : path === coarsePath ? '/dashboards/{id} default step (8 charts drawn)' : path;
    const viewportOf = (path: string) => (path.startsWith('/dashboards/') ? { width: 1280, height: 1600 } : { width: 1280, height: 900 });

    const coldRound = async (path: string, webhookUrl: string | null) => {
      const context: BrowserContext = await harness.browser.newContext({ baseURL: url, viewport: viewportOf(path) });
      try {
        await context.addInitScript(restoreSession, { origin: url, entries });
        await context.addInitScript(instrument, instrumentArg);
        return await navigate(await harness.openQuietPage(context), url, path, webhookUrl);
      } finally {
        await context.close();
      }
    };
    const warmRound = async (path: string, webhookUrl: string | null) => {
      await warmPage.setViewportSize(viewportOf(path));
      return navigate(warmPage, url, path, webhookUrl);
    };

    if (process.argv.includes('--cold-waterfall')) {
      // Where a cold dashboard navigation waits: each resource's start and end (page clock), per cold round (--rounds).
      // `--ab <query>`: every other round opens the dashboard with that query added (an A/B of a switch the page reads).
      const variant = process.argv.includes('--ab') ? process.argv[process.argv.indexOf('--ab') + 1]! : null;
      const painted: number[] = [];
      const paintedB: number[] = [];
      for (let i = 0; i < Math.max(3, rounds) * (variant ? 2 : 1); i++) {
        const b = variant !== null && i % 2 === 1;
        const path = b ? `${dashboardPath}${variant}` : dashboardPath;
        const context: BrowserContext = await harness.browser.newContext({ baseURL: url, viewport: viewportOf(dashboardPath) });
        try {
          await context.addInitScript(restoreSession, { origin: url, entries });
          await context.addInitScript(instrument, instrumentArg);
          const page = await harness.openQuietPage(context);
          const profiled = i === 2 && process.argv.includes('--cpu');
          const cdp = profiled ? await context.newCDPSession(page) : null;
          if (cdp) {
            await cdp.send('Profiler.enable');
            await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
            await cdp.send('Profiler.start');
          }
          // A trace slows the page down (the v8 category most): only with --trace.
          const traced = !cdp && process.argv.includes('--trace');
          if (traced) await harness.browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
          const processesBefore = await browserProcesses(harness.browser);
          const sample = await navigate(page, url, path, null);
          const cpu = cpuBetween(processesBefore, await browserProcesses(harness.browser));
          const trace = traced ? (JSON.parse((await harness.browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }) : null;
          if (cdp) {
            const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
            const tops = profileTops(profile);
            for (const [key, ms] of tops.inclusive.slice(0, 45)) print(`${ms.toFixed(1).padStart(8)} ms  (total) ${key}`);
            for (const [key, ms] of tops.self.slice(0, 30)) print(`${ms.toFixed(1).padStart(8)} ms  ${key}`);
          }
          const timing = await page.evaluate(() => {
            const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
            const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
              (entry) => [entry.name.replace(location.origin, '').slice(0, 90), entry.startTime, entry.responseEnd, entry.transferSize] as const,
            );
            // performance.mark()s an experiment put in the app's code (none ship): when its steps ran, beside the resources.
            const marks = performance.getEntriesByType('mark').map((mark) => `${mark.name}@${mark.startTime.toFixed(0)}`);
            return { nav: [nav.responseStart, nav.responseEnd, nav.domContentLoadedEventEnd] as const, resources, marks };
          });
          (b ? paintedB : painted).push(sample.painted);
          print(`cold round ${i + 1}${b ? ' (B)' : ''}: usable ${sample.usable.toFixed(0)} ms, painted ${sample.painted.toFixed(0)} ms; document response ${timing.nav[0].toFixed(0)}-${timing.nav[1].toFixed(0)}, DOMContentLoaded ${timing.nav[2].toFixed(0)}`);
          print(`browser CPU during the round: ${cpu}`);
          if (timing.marks.length) print(`marks: ${timing.marks.join(' ')}`);
          for (const [name, start, end, size] of timing.resources) print(`${start.toFixed(0).padStart(6)} → ${end.toFixed(0).padStart(6)}  ${String(size).padStart(8)} B  ${name}`);
          if (trace) for (const line of mainThreadTasks(trace.traceEvents, 2)) print(line);
        } finally {
          await context.close();
        }
      }
      print(`cold dashboard painted, ms: ${painted.map((ms) => ms.toFixed(0)).join(' ')}; median ${median(painted).toFixed(0)}`);
      if (variant) print(`cold dashboard with ${variant} (B), ms: ${paintedB.map((ms) => ms.toFixed(0)).join(' ')}; median ${median(paintedB).toFixed(0)}`);
      return out.join('\n');
    }
    if (process.argv.includes('--profile')) {
      // Where a warm dashboard navigation spends the page's main thread: a CPU profile (Chrome DevTools protocol), the
      // functions with the most self time, then stop (no rounds).
      await warmRound(dashboardPath, null);
      const cdp = await warmContext.newCDPSession(warmPage);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      const sample = await warmRound(dashboardPath, null);
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
      const tops = profileTops(profile);
      for (const [key, ms] of tops.inclusive.slice(0, 40)) print(`${ms.toFixed(1).padStart(8)} ms  (total) ${key}`);
      print(`profiled navigation: usable ${sample.usable.toFixed(0)} ms, painted ${sample.painted.toFixed(0)} ms, last API answer ${sample.lastApiEnd.toFixed(0)} ms`);
      for (const [key, ms] of tops.self.slice(0, 30)) print(`${ms.toFixed(1).padStart(8)} ms  ${key}`);
      // The waterfall: every resource the navigation loaded, when it started and ended (page clock).
      const resources = await warmPage.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => [entry.name.replace(location.origin, '').slice(0, 90), entry.startTime, entry.responseEnd] as const),
      );
      for (const [name, start, end] of resources) print(`${start.toFixed(0).padStart(6)} → ${end.toFixed(0).padStart(6)}  ${name}`);
      // The main thread's time by kind of work (a DevTools timeline trace of one more navigation).
      await harness.browser.startTracing(warmPage, { categories: ['devtools.timeline', 'v8', 'disabled-by-default-devtools.timeline'] });
      await warmRound(dashboardPath, null);
      const trace = JSON.parse((await harness.browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
      const main = trace.traceEvents.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
      const kinds = new Map<string, number>();
      for (const event of trace.traceEvents) {
        if (event.ph !== 'X' || !event.dur || !main || event.tid !== main.tid || event.pid !== main.pid) continue;
        kinds.set(event.name, (kinds.get(event.name) ?? 0) + event.dur / 1000);
      }
      for (const [name, ms] of [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 25)) print(`${ms.toFixed(1).padStart(8)} ms  (inclusive) ${name}`);
      // The main thread's tasks in order (those over 3 ms), from the document's first parse: when the page worked and waited.
      for (const line of mainThreadTasks(trace.traceEvents, 3)) print(line);
      const marks = await warmPage.evaluate(() => performance.getEntriesByType('navigation').map((n) => JSON.stringify({ dcl: (n as PerformanceNavigationTiming).domContentLoadedEventEnd, response: (n as PerformanceNavigationTiming).responseEnd })));
      print(`navigation: ${marks.join(' ')}`);
      return out.join('\n');
    }
    /**
     * A dashboard opened from inside the app, as a member moves between pages: the app already running (a settings page
     * loaded first, so nothing of the dashboard is in its memory), then the router sent to the dashboard (history
     * pushState, what a link does) and timed from there to all 8 charts drawn and the frame after.
     */
    const inAppRound = async (path: string): Promise<number> => {
      await warmPage.setViewportSize(viewportOf(path));
      await navigate(warmPage, url, '/settings/workspace', null);
      return warmPage.evaluate(
        ({ target, panels }) =>
          new Promise<number>((resolve, reject) => {
            const started = performance.now();
            const done = () => {
              const captions = Array.from(document.querySelectorAll('.dashboard-panel .time-series-chart caption')).filter((c) => / points up to /.test(c.textContent ?? ''));
              return captions.length >= panels && document.querySelectorAll('.dashboard-panel .time-series-chart-plot canvas').length >= panels;
            };
            const observer = new MutationObserver(() => {
              if (!done()) return;
              observer.disconnect();
              requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0));
            });
            observer.observe(document, { childList: true, subtree: true, characterData: true });
            setTimeout(() => reject(new Error(`${target}: not drawn in 30 s`)), 30_000);
            history.pushState(null, '', target);
          }),
        { target: path, panels: panelMetrics.length },
      );
    };
    const dashboards = [dashboardPath, coarsePath];
    const inApp = new Map<string, number[]>(dashboards.map((path) => [path, []]));

    const results = new Map<string, { cold: Sample[]; warm: Sample[] }>();
    for (const [path] of targets) results.set(path, { cold: [], warm: [] });
    // One unmeasured warm-up of each.
    for (const [path, webhookUrl] of targets) {
      await coldRound(path, webhookUrl);
      await warmRound(path, webhookUrl);
    }
    for (const path of dashboards) await inAppRound(path);
    const loadDuring: string[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const [path, webhookUrl] of targets) {
        results.get(path)!.cold.push(await coldRound(path, webhookUrl));
        results.get(path)!.warm.push(await warmRound(path, webhookUrl));
      }
      for (const path of dashboards) inApp.get(path)!.push(await inAppRound(path));
      if (round === Math.floor(rounds / 2)) loadDuring.push((await machineLoad(1)).text);
      log(`round ${round + 1} of ${rounds} done`);
    }

    const ms = (value: number) => value.toFixed(0);
    print(`\nSettings pages and a dashboard, ${rounds} rounds per row; times in ms from the navigation's start (page clock).`);
    print(`Browser: ${harness.browserName}; a cold round's page opened in a new context${process.argv.includes('--cold-at-once') ? ' and navigated at once (--cold-at-once)' : ' once the browser was quiet again'}.`);
    print(`Data: ${audit} audit entries, ${deliveries} deliveries of the webhook, ${machines.length * seconds} metric points (1 h x 1 s x 4 machines).`);
    print(`Machine load mid-run (this benchmark included): ${loadDuring.join('; ')}\n`);
    print('| page | cache | usable median | usable p95 | painted median | painted p95 | target | p95 / target | API calls | last API answer median | slowest call (median ms) | shown |');
    print('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|');
    for (const [path] of targets) {
      const result = results.get(path)!;
      const dashboardRow = path.startsWith('/dashboards/');
      const target = dashboardRow ? 500 : 1000;
      const name = nameOf(path);
      for (const [cache, samples] of [['cold', result.cold], ['warm', result.warm]] as const) {
        const usable = samples.map((s) => s.usable);
        const painted = samples.map((s) => s.painted);
        const slowestNames = new Map<string, number>();
        for (const sample of samples) slowestNames.set(sample.slowestCall, (slowestNames.get(sample.slowestCall) ?? 0) + 1);
        const slowest = [...slowestNames].sort((a, b) => b[1] - a[1])[0]![0];
        print(
          `| ${name} | ${cache} | ${ms(median(usable))} | ${ms(percentile(usable, 95))} | ${ms(median(painted))} | ${ms(percentile(painted, 95))} | ${target} | ${(percentile(painted, 95) / target).toFixed(2)}x | ${median(samples.map((s) => s.apiCalls))} | ${ms(median(samples.map((s) => s.lastApiEnd)))} | ${slowest} (${ms(median(samples.map((s) => s.slowestMs)))}) | ${samples[0]!.detail} |`,
        );
        if (path === '/settings/webhooks') {
          const history = samples.map((s) => s.history!);
          const total = samples.map((s) => s.painted + s.history!);
          print(`| ${name}: "Deliveries" click to history painted | ${cache} | | | ${ms(median(history))} | ${ms(percentile(history, 95))} | | | | | | 25 newest of ${deliveries} |`);
          print(`| ${name}: page + history (sum) | ${cache} | | | ${ms(median(total))} | ${ms(percentile(total, 95))} | 1000 | ${(percentile(total, 95) / 1000).toFixed(2)}x | | | | |`);
        }
      }
    }
    print('\nA dashboard opened from inside the running app (the router sent to it from a settings page), to its 8 charts drawn:\n');
    print('| page | painted median ms | painted p95 ms | target | p95 / target |');
    print('|---|---:|---:|---:|---:|');
    for (const path of dashboards) {
      const times = inApp.get(path)!;
      print(`| ${nameOf(path)}, in-app | ${ms(median(times))} | ${ms(percentile(times, 95))} | 500 | ${(percentile(times, 95) / 500).toFixed(2)}x |`);
    }
    print(`\nThe 8 panel queries alone (by machine, the run's hour), from the driver with fetch: the first round (the service computes the answers), then ${rounds} rounds:\n`);
    print('| step | first read, computed: ms | sent together: median ms | p95 ms | one after another: median ms | p95 ms | JSON answered |');
    print('|---|---:|---:|---:|---:|---:|---:|');
    for (const [step, api] of [['1 s', apiFine], ['default (range / 250)', apiCoarse]] as const) {
      print(`| ${step} | ${ms(api.first)} | ${ms(median(api.together))} | ${ms(percentile(api.together, 95))} | ${ms(median(api.oneByOne))} | ${ms(percentile(api.oneByOne, 95))} | ${(api.bytes / 1024).toFixed(0)} KB |`);
    }
    print(`\nall rounds, painted ms (cold / warm):`);
    for (const [path] of targets) {
      const result = results.get(path)!;
      print(`- ${nameOf(path)}: ${result.cold.map((s) => ms(s.painted)).join(' ')} / ${result.warm.map((s) => ms(s.painted)).join(' ')}`);
    }
    for (const path of dashboards) print(`- ${nameOf(path)}, in-app: ${inApp.get(path)!.map(ms).join(' ')}`);
    return out.join('\n');
  } finally {
    if (restarted) {
      const code = await restarted.stop();
      if (code !== 0 && code !== null) console.error(`bench: the restarted service exited with ${code}`);
    }
    process.off('exit', killRestarted);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(signal, onSignal);
    await receiver.stop();
  }
}

await runBench(main);
