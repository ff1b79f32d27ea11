/**
 * A tour of every MCP tool with real data, the same over either transport: a test of native steps against a local
 * target, run on the workspace's agent, waited for, its logs paged through; a load configuration; metrics and OTLP
 * series of the run; a schedule; a dashboard, a git repository, an environment variable; a run cancelled. Returns the
 * tools it called, so a suite can hold that every tool was.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'bun:test';
import { taskLog } from './engine-runs.ts';
import type { GitHttpServer } from './git-http-server.ts';
import { call as callTool, callError as callToolError, type Structured } from './mcp-client.ts';
import { exportBody, gauge } from './otlp-json.ts';
import { waitFor } from './process-probes.ts';
import type { TestService } from './test-service.ts';

/** Answers GET /hello with 200 and POST /items with 201, counting what it served. */
export function startStepsTarget() {
  let served = 0;
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      served++;
      const path = new URL(request.url).pathname;
      if (path === '/items' && request.method === 'POST') return new Response('{"id":1}', { status: 201 });
      if (path === '/hello') return new Response('hello');
      return new Response('not here', { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, served: () => served, stop: () => server.stop(true) };
}

export interface TourWorld {
  ts: TestService;
  /** A full-access API token of the workspace's owner. */
  token: string;
  machineId: string;
  hostname: string;
  target: ReturnType<typeof startStepsTarget>;
  git: GitHttpServer;
  /** Distinguishes what one tour creates from another's. */
  prefix: string;
}

interface Run {
  id: string;
  public_id: string;
  status: string;
  total_requests: number;
  error_rate: number;
  p50: number;
  machine_ids: string[];
}

export async function tourEveryTool(client: Client, world: TourWorld): Promise<Set<string>> {
  const { ts, token, prefix } = world;
  const called = new Set<string>();
  const call = <T = Structured>(name: string, args: Record<string, unknown> = {}) => {
    called.add(name);
    return callTool(client, name, args) as Promise<T>;
  };
  const rest = (path: string, init: { method?: string; json?: unknown } = {}) => ts.request(path, { token, ...init });

  // Who, what the plan allows, and the budget: every call counts, `usage` itself too.
  const me = await call<{ role: string; permissions: string[]; workspace: { plan: string } }>('whoami');
  expect(me.role).toBe('owner');
  expect(me.permissions).toContain('run_tests');
  const limits = await call<{ plan: string; machines: { used: number | null } }>('limits');
  expect(limits.plan).toBe(me.workspace.plan);
  expect(limits.machines.used).toBe(1);
  const firstUsage = await call<{ ai_tool_calls: { used: number } }>('usage');
  const secondUsage = await call<{ ai_tool_calls: { used: number } }>('usage');
  expect(secondUsage.ai_tool_calls.used).toBe(firstUsage.ai_tool_calls.used + 1);

  // The machine, by id and by hostname.
  const machines = await call<{ items: { id: string; tools: { tool: string }[] }[] }>('list_machines');
  expect(machines.items.map((machine) => machine.id)).toContain(world.machineId);
  expect(machines.items.find((machine) => machine.id === world.machineId)!.tools.map((tool) => tool.tool)).toContain('http');
  expect(((await call('get_machine', { machine_id: world.machineId })) as { machine: { id: string } }).machine.id).toBe(world.machineId);
  expect(((await call('get_machine', { machine_id: world.hostname })) as { machine: { id: string } }).machine.id).toBe(world.machineId);

  // Steps checked without saving, then saved as an http test.
  const steps = [
    { name: 'hello', method: 'GET', url: '/hello', expect: { status: 200, body_contains: 'hello' } },
    { name: 'create item', method: 'POST', url: '/items', body: { item: 1 }, expect: { status: 201 } },
  ];
  const checked = await call<{ valid: boolean; script: string; tool: string }>('validate_test', { steps, base_url: world.target.url });
  expect(checked).toMatchObject({ valid: true, tool: 'http' });
  expect(JSON.parse(checked.script).steps).toHaveLength(2);
  const refused = await call<{ valid: boolean; error: string }>('validate_test', { steps: [{ method: 'GET', url: '/relative' }] });
  expect(refused.valid).toBe(false);
  expect(refused.error).toContain('base_url');
  // Asked for, a dry run: the steps run once, briefly, on the machine; the draft test made for it is gone, its run kept.
  const servedBeforeDryRun = world.target.served();
  const tried = await call<{ valid: boolean; dry_run: { run_id: string; status: string; total_requests: number; error_rate: number; log_tail: string[] } }>(
    'validate_test',
    { steps, base_url: world.target.url, dry_run_machine_id: world.machineId },
  );
  expect(tried.valid).toBe(true);
  expect(tried.dry_run).toMatchObject({ status: 'completed', error_rate: 0 });
  expect(tried.dry_run.total_requests).toBeGreaterThan(0);
  expect(tried.dry_run.total_requests).toBe(world.target.served() - servedBeforeDryRun);
  expect(tried.dry_run.log_tail.length).toBeGreaterThan(0);
  const testsAfterDryRun = (await (await rest('/api/v1/tests')).json()) as { name: string }[];
  expect(testsAfterDryRun.some((test) => test.name.startsWith('validate_test dry run'))).toBe(false);
  expect((await rest(`/api/v1/tasks/${tried.dry_run.run_id}`)).status).toBe(200);

  const written = await call<{ test: { id: string; tool: string; status: string }; created: boolean }>('write_test', {
    name: `${prefix} shop`,
    steps,
    base_url: world.target.url,
  });
  expect(written).toMatchObject({ created: true, test: { tool: 'http', status: 'draft' } });
  const testId = written.test.id;
  const activated = await call<{ test: { status: string }; created: boolean }>('write_test', { test_id: testId, status: 'active' });
  expect(activated).toMatchObject({ created: false, test: { status: 'active' } });
  const listedTests = await call<{ items: { id: string; script_preview: string }[] }>('list_tests');
  expect(listedTests.items.map((test) => test.id)).toContain(testId);
  const fetched = await call<{ test: { script: string; script_truncated: boolean } }>('get_test', { test_id: testId });
  expect(JSON.parse(fetched.test.script)).toEqual({ base_url: world.target.url, steps });
  expect(fetched.test.script_truncated).toBe(false);

  // A load configuration: 2 VUs for 1 s, renamed.
  const config = await call<{ config: { id: string; vus: number; duration: string }; created: boolean }>('write_config', { name: `${prefix} short`, vus: 2, duration: '1s' });
  expect(config).toMatchObject({ created: true, config: { vus: 2, duration: '1s' } });
  const renamed = await call<{ config: { name: string }; created: boolean }>('write_config', { config_id: config.config.id, name: `${prefix} short burst` });
  expect(renamed).toMatchObject({ created: false, config: { name: `${prefix} short burst` } });
  expect(((await call('list_configs')) as { items: { id: string }[] }).items.map((each) => each.id)).toContain(config.config.id);

  // The run: started, waited for, its figures the target's own count.
  const servedBefore = world.target.served();
  const started = await call<{ run_id: string; status: string; log_stream: { sse: string; websocket: string } }>('run_test', { test_id: testId, config_id: config.config.id });
  expect(started.status).toBe('pending');
  expect(started.log_stream.sse).toBe(`${ts.url}/api/v1/tasks/${started.run_id}/log-stream`);
  expect(started.log_stream.websocket).toBe(`${ts.url.replace(/^http/, 'ws')}/api/v1/tasks/${started.run_id}/ws`);
  const waited = await call<{ run: Run; finished: boolean }>('wait_for_run', { run_id: started.run_id, timeout_seconds: 120 });
  expect(waited.finished).toBe(true);
  expect(waited.run.status).toBe('completed');
  expect(waited.run.total_requests).toBe(world.target.served() - servedBefore);
  expect(waited.run.total_requests).toBeGreaterThan(2);
  expect(waited.run.error_rate).toBe(0);
  const run = waited.run;
  expect(((await call('get_run', { run_id: run.public_id })) as { run: Run }).run).toEqual(run);
  expect(((await call('list_runs')) as { items: Run[] }).items.map((each) => each.id)).toContain(run.id);
  const byMachine = await call<{ items: Run[]; next_cursor: string | null }>('runs_by_machine', { machine_id: world.machineId });
  expect(byMachine.items.map((each) => each.id)).toContain(run.id);

  // What the run means: no thresholds (no verdict), its endpoints (the steps' names), no errors; made the test's
  // baseline, then compared with it (itself: no change), and cleared.
  const verdict = await call<{ finished: boolean; verdict: string | null; threshold_results: unknown[] }>('get_run_verdict', { run_id: run.public_id });
  expect(verdict).toMatchObject({ finished: true, verdict: null, threshold_results: [] });
  const endpoints = await call<{ endpoints: { name: string; requests: number }[] }>('get_run_endpoints', { run_id: run.id });
  expect(endpoints.endpoints.map((one) => one.name).sort()).toEqual(['create item', 'hello']);
  for (const one of endpoints.endpoints) expect(one.requests, one.name).toBeGreaterThan(0);
  expect(await call('get_run_errors', { run_id: run.id })).toMatchObject({ groups: [], groups_total: 0, failures_total: 0 });
  expect(await call('set_baseline', { test_id: testId, run_id: run.public_id })).toMatchObject({ test_id: testId, baseline_run_id: run.id });
  const compared = await call<{ base: { id: string }; current: { id: string }; changes: Record<string, number | null> }>('compare_runs', { run_id: run.id, with: 'baseline' });
  expect(compared.base.id).toBe(run.id);
  expect(compared.current.id).toBe(run.id);
  expect(compared.changes.requests_per_sec).toBe(0);
  expect(await call('set_baseline', { test_id: testId, clear: true })).toMatchObject({ baseline_run_id: null });

  // A schedule of the test (disabled, so it never fires during the tour), listed by its test, changed, deleted.
  type Schedule = { id: string; test_id: string; cron: string; timezone: string; config_id: string | null; enabled: boolean; next_run_at: string | null };
  const scheduled = await call<{ schedule: Schedule; created: boolean }>('write_schedule', {
    test_id: testId,
    cron: '0 3 * * mon-fri',
    timezone: 'Europe/Berlin',
    config_id: config.config.id,
    enabled: false,
  });
  expect(scheduled).toMatchObject({ created: true, schedule: { test_id: testId, timezone: 'Europe/Berlin', config_id: config.config.id, enabled: false, next_run_at: null } });
  const scheduleId = scheduled.schedule.id;
  const schedules = await call<{ items: Schedule[]; next_cursor: string | null }>('list_schedules', { test_id: testId });
  expect(schedules).toEqual({ items: [scheduled.schedule], next_cursor: null });
  const rescheduled = await call<{ schedule: Schedule; created: boolean }>('write_schedule', { schedule_id: scheduleId, cron: '30 4 * * *', config_id: null });
  expect(rescheduled).toMatchObject({ created: false, schedule: { id: scheduleId, cron: '30 4 * * *', config_id: null, enabled: false } });
  expect(await call('write_schedule', { schedule_id: scheduleId, delete: true })).toEqual({ schedule: null, created: false, deleted: true });
  expect((await rest(`/api/v1/schedules/${scheduleId}`)).status).toBe(404);

  // The whole stored log, three lines a page: exactly the stored lines, in order, then complete.
  const pages: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await call<{ lines: { text: string }[]; next_cursor: string | null; complete: boolean }>('get_run_logs', {
      run_id: run.id,
      limit: 3,
      ...(cursor ? { cursor } : {}),
    });
    expect(page.lines.length).toBeLessThanOrEqual(3);
    pages.push(...page.lines.map((line) => line.text));
    if (page.complete) {
      expect(page.next_cursor).toBeNull();
      break;
    }
    cursor = page.next_cursor!;
  }
  expect(pages).toEqual(await taskLog(ts, run.id));
  expect(pages.some((line) => line.startsWith('[http] summary'))).toBe(true);

  // The run's series: in the catalog, and queried with its run label.
  const catalog = await call<{ metrics: { name: string; labels: { name: string; values: string[] }[] }[] }>('metrics_catalog');
  const requestRate = catalog.metrics.find((metric) => metric.name === 'request_rate');
  expect(requestRate!.labels.find((label) => label.name === 'run')!.values).toContain(run.id);
  const series = await call<{ series: { labels: Record<string, string>; points: number[][] }[]; unit: string }>('query_metrics', {
    metric: 'requests',
    start: '-1h',
    run: run.id,
  });
  expect(series.series).toHaveLength(1);
  expect(series.series[0]!.labels.run).toBe(run.id);
  expect(series.series[0]!.points.reduce((sum, point) => sum + (point[1] ?? 0), 0)).toBe(run.total_requests);

  // OTLP points of the run: 400 sent, at most 300 handed out, evenly thinned, first and last kept.
  const startMs = Date.now() - 400_000;
  const points = Array.from({ length: 400 }, (_, index) => ({ ms: startMs + index * 1000, value: index }));
  const exported = await ts.request('/api/v1/otlp/v1/metrics', {
    method: 'POST',
    token,
    json: exportBody({ resource: { 'loadplane.task_id': run.id, 'service.name': 'shop' }, metrics: [gauge('shop.queue_depth', points, '1')] }),
  });
  expect(exported.status, await exported.clone().text()).toBe(200);
  const otel = await call<{ series: { name: string; points: number[][]; points_total: number }[]; next_cursor: string | null }>('get_otel_timeseries', { run_id: run.public_id });
  expect(otel.series).toHaveLength(1);
  expect(otel.series[0]).toMatchObject({ name: 'shop.queue_depth', points_total: 400 });
  expect(otel.series[0]!.points).toHaveLength(300);
  expect(otel.series[0]!.points[0]![1]).toBe(0);
  expect(otel.series[0]!.points.at(-1)![1]).toBe(399);

  // A dashboard, a repository and an environment variable made over REST, read over MCP.
  const dashboard = await rest('/api/v1/dashboards', { method: 'POST', json: { name: `${prefix} board`, panels: [{ title: 'rate', query: 'metric=request_rate', chart: 'line' }] } });
  expect(dashboard.status).toBe(201);
  expect(((await call('list_dashboards')) as { items: { name: string }[] }).items.map((each) => each.name)).toContain(`${prefix} board`);

  await world.git.commit(`${prefix}-perf`, { 'load/smoke.js': "import http from 'k6/http';\nexport default function () { http.get('http://127.0.0.1/'); }\n" });
  const connected = await rest('/api/v1/git-repos', { method: 'POST', json: { url: world.git.url(`${prefix}-perf`), path: 'load' } });
  expect(connected.status, await connected.clone().text()).toBe(201);
  const repoId = ((await connected.json()) as { id: string }).id;
  const syncStatus = async () => ((await (await rest(`/api/v1/git-repos/${repoId}`)).json()) as { sync_status: string }).sync_status;
  await waitFor(async () => (await syncStatus()) === 'synced', 45_000, 'the first sync');
  const resynced = await call<{ repo: { id: string; sync_status: string } }>('sync_git_repo', { repo_id: repoId });
  expect(resynced.repo.id).toBe(repoId);
  expect(['queued', 'syncing', 'synced']).toContain(resynced.repo.sync_status);
  await waitFor(async () => (await syncStatus()) === 'synced', 45_000, 'the sync it asked for');
  const repos = await call<{ items: { id: string; sync_status: string; last_result: { created: number; unchanged: number } }[] }>('list_git_repos');
  expect(repos.items.find((repo) => repo.id === repoId)).toMatchObject({ sync_status: 'synced', last_result: { unchanged: 1 } });

  const secret = `${prefix}-s3cr3t-value`;
  expect([200, 201]).toContain((await rest('/api/v1/env-vars/SHOP_API_KEY', { method: 'PUT', json: { value: secret } })).status);
  called.add('list_env_vars');
  const envResult = await client.callTool({ name: 'list_env_vars', arguments: {} });
  expect(JSON.stringify(envResult)).not.toContain(secret);
  expect((envResult.structuredContent as { items: { key: string; value: string }[] }).items).toContainEqual(expect.objectContaining({ key: 'SHOP_API_KEY', value: '***' }));

  // Cancelled: a long run stopped at once, its end waited for.
  const long = await call<{ config: { id: string } }>('write_config', { name: `${prefix} long`, vus: 1, duration: '5m' });
  const longRun = await call<{ run_id: string }>('run_test', { test_id: testId, config_id: long.config.id });
  const cancelled = await call<{ run: Run }>('cancel_run', { run_id: longRun.run_id });
  expect(['cancelled', 'running', 'pending']).toContain(cancelled.run.status);
  const ended = await call<{ run: Run; finished: boolean }>('wait_for_run', { run_id: longRun.run_id, timeout_seconds: 60 });
  expect(ended).toMatchObject({ finished: true, run: { status: 'cancelled' } });

  // Everything above is in the audit log, by the token it was done with.
  const audit = await call<{ items: { action: string }[] }>('audit_log', { limit: 200 });
  expect(audit.items.map((entry) => entry.action)).toEqual(expect.arrayContaining(['test.created', 'config.created', 'schedule.deleted', 'run.cancelled']));

  // A refusal of REST is a tool error with its code and message.
  const missing = await callToolError(client, 'get_run', { run_id: crypto.randomUUID() });
  expect(missing).toMatchObject({ error: 'not_found', status: 404 });
  return called;
}
