/**
 * get_run_verdict, get_run_endpoints, get_run_errors, compare_runs and set_baseline against the real service, over
 * POST /api/mcp in process: seeded finished runs (figures, endpoints, error groups, threshold results), the answers
 * checked against what REST holds, and REST's refusals (an unfinished run as baseline, no baseline, a token without
 * tests:write) as tool errors.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { seedFinishedRun, seedPendingRun, seedTest, type SeededRun } from '../../../tests/helpers/finished-runs.ts';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

type Structured = Record<string, unknown>;

let ts: TestService;
let token: string;
let testId: string;
let base: SeededRun;
let current: SeededRun;

/** One tools/call over POST /api/mcp (answered as one SSE event): the tool's result. */
async function callTool(name: string, args: Structured, bearer = token): Promise<{ isError?: boolean; structuredContent?: Structured; content: { text: string }[] }> {
  const response = await ts.request('/api/mcp', {
    method: 'POST',
    token: bearer,
    headers: { accept: 'application/json, text/event-stream' },
    json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  const message = JSON.parse(data ? data.slice('data: '.length) : text) as { result: { isError?: boolean; structuredContent?: Structured; content: { text: string }[] } };
  return message.result;
}

async function answer(name: string, args: Structured, bearer = token): Promise<Structured> {
  const result = await callTool(name, args, bearer);
  expect(result.isError ?? false, result.content[0]?.text).toBe(false);
  // The text is the same answer as JSON.
  expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
  return result.structuredContent!;
}

async function toolError(name: string, args: Structured, bearer = token): Promise<{ error: string; message: string; status: number }> {
  const result = await callTool(name, args, bearer);
  expect(result.isError, result.content[0]?.text).toBe(true);
  return JSON.parse(result.content[0]!.text);
}

const rest = async (path: string) => (await ts.request(`/api/v1${path}`, { token })).json();

const thresholdResults = [
  { metric: 'p95' as const, op: '<' as const, value: 140, actual: 150, ok: false },
  { metric: 'error_rate' as const, endpoint: 'GET /a', op: '<=' as const, value: 0.05, abort: true, actual: 0, ok: true },
];

beforeAll(async () => {
  ts = await startTestService();
  token = (await ts.apiToken('mcp-results-owner')).token;
  testId = await seedTest(ts, token, 'checkout');
  base = await seedFinishedRun(
    ts,
    token,
    testId,
    { p50: 100, p95: 200, p99: 400, error_rate: 0.01, requests_per_sec: 50, total_requests: 5000 },
    { verdict: 'passed', endpoints: [{ name: 'GET /a', latency: 100, requests: 10, errors: 1 }] },
  );
  current = await seedFinishedRun(
    ts,
    token,
    testId,
    { p50: 112, p95: 150, p99: 400, error_rate: 0.03, requests_per_sec: 60, total_requests: 6000 },
    {
      status: 'failed',
      verdict: 'failed',
      thresholdResults,
      error: 'thresholds failed: p95 < 140 (actual 150)',
      endpoints: [
        { name: 'GET /a', latency: 150, requests: 20 },
        { name: 'POST /b', latency: 80, requests: 4, errors: 2 },
      ],
      errorGroups: [
        { endpoint: 'POST /b', kind: 'status', code: '500', message: 'status 500, expected below 400', count: 15 },
        { endpoint: 'POST /b', kind: 'network', code: 'ECONNRESET', message: 'socket hang up', count: 5 },
        { endpoint: 'GET /a', kind: 'check', code: 'body_contains', message: 'body lacks "ok"', count: 1 },
      ],
    },
  );
}, 120_000);
afterAll(() => ts.stop());

describe('reading a run', () => {
  test('get_run_verdict: the verdict, each threshold with its figure, the error; a pending run has none and is not finished', async () => {
    expect(await answer('get_run_verdict', { run_id: current.public_id })).toEqual({
      run_id: current.id,
      public_id: current.public_id,
      test_id: testId,
      status: 'failed',
      finished: true,
      verdict: 'failed',
      threshold_results: thresholdResults,
      error: 'thresholds failed: p95 < 140 (actual 150)',
    });
    const pending = await seedPendingRun(ts, token, testId);
    expect(await answer('get_run_verdict', { run_id: pending.id })).toMatchObject({ status: 'pending', finished: false, verdict: null, threshold_results: [], error: null });
    expect(await toolError('get_run_verdict', { run_id: crypto.randomUUID() })).toMatchObject({ error: 'not_found', status: 404 });
  });

  test("get_run_endpoints: REST's endpoints of the run, as they are", async () => {
    const result = await answer('get_run_endpoints', { run_id: current.public_id });
    expect(result.run_id).toBe(current.public_id);
    expect(result.endpoints).toEqual(await rest(`/tasks/${current.id}/endpoints`));
    expect((result.endpoints as { name: string; requests: number; errors: number }[]).map((one) => [one.name, one.requests, one.errors])).toEqual([
      ['GET /a', 200, 0],
      ['POST /b', 40, 20],
    ]);
  });

  test('get_run_errors: groups by count with the totals; limit keeps the most frequent', async () => {
    const all = await answer('get_run_errors', { run_id: current.id });
    expect(all).toEqual({ run_id: current.id, groups: await rest(`/tasks/${current.id}/errors`), groups_total: 3, failures_total: 21 });
    expect((all.groups as { code: string }[]).map((group) => group.code)).toEqual(['500', 'ECONNRESET', 'body_contains']);
    const first = await answer('get_run_errors', { run_id: current.id, limit: 1 });
    expect(first).toMatchObject({ groups: [{ endpoint: 'POST /b', kind: 'status', code: '500', count: 15 }], groups_total: 3, failures_total: 21 });
    expect(await answer('get_run_errors', { run_id: base.id })).toEqual({ run_id: base.id, groups: [], groups_total: 0, failures_total: 0 });
  });
});

describe('baseline and comparison', () => {
  test('set_baseline, then compare_runs with "baseline": the relative changes; clear: true removes it and compare says not_found', async () => {
    expect(await answer('set_baseline', { test_id: testId, run_id: base.public_id })).toEqual({ test_id: testId, test_name: 'checkout', baseline_run_id: base.id });
    const compared = await answer('compare_runs', { run_id: current.id, with: 'baseline' });
    expect(compared).toEqual(await rest(`/tasks/${current.id}/compare?with=baseline`));
    expect(compared.base).toMatchObject({ id: base.id, verdict: 'passed', p95: 200 });
    expect(compared.current).toMatchObject({ id: current.id, verdict: 'failed', p95: 150 });
    expect(compared.changes).toEqual({ p50: 0.12, p95: -0.25, p99: 0, error_rate: 2, requests_per_sec: 0.2 });
    const endpoints = compared.endpoints as { name: string; base: unknown; changes: Record<string, number | null> | null }[];
    expect(endpoints.map((one) => one.name)).toEqual(['GET /a', 'POST /b']);
    expect(endpoints[0]!.changes).toMatchObject({ error_rate: -1, requests_per_sec: 1 });
    expect(endpoints[1]).toMatchObject({ base: null, changes: null });

    // With a named run: the base is that run.
    const named = await answer('compare_runs', { run_id: base.public_id, with: current.public_id });
    expect(named.changes).toMatchObject({ p99: 0, requests_per_sec: -0.166667 });

    expect(await answer('set_baseline', { test_id: testId, clear: true })).toEqual({ test_id: testId, test_name: null, baseline_run_id: null });
    expect(((await rest(`/tests/${testId}`)) as { baseline_task_id: unknown }).baseline_task_id).toBeNull();
    const none = await toolError('compare_runs', { run_id: current.id, with: 'baseline' });
    expect(none).toMatchObject({ error: 'not_found', status: 404 });
    expect(none.message).toContain('has no baseline');
  });

  test("set_baseline refusals: REST's bad_request for an unfinished run, arguments missing or both, scopes", async () => {
    const pending = await seedPendingRun(ts, token, testId);
    const unfinished = await toolError('set_baseline', { test_id: testId, run_id: pending.id });
    expect(unfinished).toMatchObject({ error: 'bad_request', status: 400 });
    expect(unfinished.message).toContain('not finished');
    expect((await toolError('set_baseline', { test_id: testId })).message).toContain('give run_id');
    expect((await toolError('set_baseline', { test_id: testId, run_id: base.id, clear: true })).message).toContain('not both');
    expect((await toolError('compare_runs', { run_id: current.id })).message).toContain('/with');

    const { token: reader } = await ts.apiToken('mcp-results-reader', ['tests:read', 'runs:read']);
    expect(await toolError('set_baseline', { test_id: testId, run_id: base.id }, reader)).toMatchObject({ error: 'insufficient_scope', status: 403 });
    // Another workspace's runs are not found, whoever asks.
    expect(await toolError('compare_runs', { run_id: current.id, with: 'baseline' }, reader)).toMatchObject({ error: 'not_found', status: 404 });
  });

  test('the tools are listed with their annotations: reads read-only, set_baseline a non-destructive write', async () => {
    const response = await ts.request('/api/mcp', {
      method: 'POST',
      token,
      headers: { accept: 'application/json, text/event-stream' },
      json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    const text = await response.text();
    const data = text.split('\n').find((line) => line.startsWith('data: '))!;
    const tools = (JSON.parse(data.slice(6)) as { result: { tools: { name: string; annotations: Structured; inputSchema: Structured }[] } }).result.tools;
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of ['get_run_verdict', 'get_run_endpoints', 'get_run_errors', 'compare_runs']) {
      expect(byName.get(name)?.annotations, name).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    }
    expect(byName.get('set_baseline')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(byName.get('compare_runs')?.inputSchema).toMatchObject({ required: ['run_id', 'with'], additionalProperties: false });
  });
});
