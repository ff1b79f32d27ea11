/**
 * The monthly AI tool-call budget through the MCP endpoint: every tool call counts (usage itself too), and once the
 * workspace's budget is used up a tool answers ai_budget_exhausted and does nothing. The plan `scale` gets a budget
 * of 4 here (boot option `usage.aiToolCallBudget`), so the test spends it quickly.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { limitsOf } from '../../core/domain/plans.ts';
import { call, callError, httpClient } from '../helpers/mcp-client.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const budget = 4;
let ts: TestService;
let client: Client;
let token: string;

beforeAll(async () => {
  ts = await startTestService({
    port: await freePort(),
    boot: { usage: { aiToolCallBudget: (plan) => (plan === 'scale' ? budget : limitsOf(plan).aiToolCallsPerMonth) } },
  });
  await ts.listen();
  const owner = await ts.apiToken('budget-owner');
  token = owner.token;
  const moved = await ts.request('/api/v1/workspace', { method: 'PATCH', token: owner.jwt, json: { plan: 'scale' } });
  expect(moved.status).toBe(200);
  client = await httpClient(ts.url, token);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await ts?.stop();
});

test('each tool call counts; past the budget a tool is a clear error and nothing is done', async () => {
  expect(await call(client, 'usage')).toMatchObject({ ai_tool_calls: { used: 1, limit: budget, remaining: budget - 1 } });
  await call(client, 'whoami');
  // Listing tools is not a tool call: it costs nothing.
  await client.listTools();
  expect(await call(client, 'limits')).toMatchObject({ plan: 'scale', ai_tool_calls_per_month: budget });
  expect(await call(client, 'usage')).toMatchObject({ ai_tool_calls: { used: budget, limit: budget, remaining: 0 } });

  const refused = await callError(client, 'write_test', { name: 'over budget', steps: [{ method: 'GET', url: 'http://127.0.0.1/' }] });
  expect(refused).toMatchObject({ error: 'ai_budget_exhausted', status: 429 });
  expect(refused.message.length).toBeGreaterThan(0);
  expect(await (await ts.request('/api/v1/tests', { token })).json()).toEqual([]);
  // A read too: its answer is not handed out.
  expect(await callError(client, 'list_tests')).toMatchObject({ error: 'ai_budget_exhausted', status: 429 });
  expect(await callError(client, 'usage')).toMatchObject({ error: 'ai_budget_exhausted' });

  // REST reports the same: the refused calls were not counted.
  const usage = (await (await ts.request('/api/v1/usage', { token })).json()) as { ai_tool_calls: { used: number; limit: number } };
  expect(usage.ai_tool_calls).toEqual({ used: budget, limit: budget });
});
