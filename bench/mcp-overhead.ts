/**
 * Benchmark: what the MCP endpoint adds to a REST call. `tools/list` and `tools/call list_runs` over POST /api/mcp
 * against the same list without MCP (GET /api/v1/tasks?limit=50), and the two REST calls the endpoint adds alone (the
 * token check GET /api/v1/auth/me, the budget's count POST /api/v1/usage/ai-tool-calls), side by side in one run, with one API token, on one service started as `npm start` starts it
 * (embedded PGlite, 50 runs stored). Prints a markdown table: p50 and p99 of single calls one after another, and
 * calls/s with several in flight; then the ratios of list_runs to its REST call.
 *
 *   ./node_modules/.bin/bun bench/mcp-overhead.ts [--rounds 3] [--calls 300] [--seconds 5] [--concurrency 8]
 *
 * Loopback only, bounded in time. Each round measures the cases one after the other, so a burst of outside load hits
 * one round rather than one case; the table gives the median round per case. Every list_runs call counts against the
 * workspace's AI tool-call budget (enterprise: 50,000 a month): a fresh service per run keeps the budget fresh.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { passwordGrant, startServiceProcess } from '../tests/helpers/service-process.ts';
import { machineDescription } from './machine.ts';

interface Settings {
  rounds: number;
  calls: number;
  seconds: number;
  concurrency: number;
}

function parseArgs(argv: string[]): Settings {
  const settings: Settings = { rounds: 3, calls: 300, seconds: 5, concurrency: 8 };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]!.replace(/^--/, '');
    const value = Number(argv[++i]);
    if (!(name in settings) || !Number.isFinite(value) || value <= 0) throw new Error(`usage: bun bench/mcp-overhead.ts [--rounds N] [--calls N] [--seconds N] [--concurrency N]`);
    settings[name as keyof Settings] = value;
  }
  return settings;
}

interface Case {
  label: string;
  /** One call; resolves once the whole answer is read, throws when it is not what the case expects. */
  call(): Promise<void>;
}

interface Measured {
  p50: number;
  p99: number;
  callsPerSecond: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** After a warm-up, latency of `calls` calls one after another; throughput of `concurrency` loops for `seconds`. */
async function measure(subject: Case, settings: Settings): Promise<Measured> {
  // The first calls of a case after another's run slower (JIT, caches, connections): not measured.
  for (let i = 0; i < Math.ceil(settings.calls / 5); i++) await subject.call();
  const times: number[] = [];
  for (let i = 0; i < settings.calls; i++) {
    const began = performance.now();
    await subject.call();
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  let done = 0;
  const began = performance.now();
  const until = began + settings.seconds * 1000;
  await Promise.all(
    Array.from({ length: settings.concurrency }, async () => {
      while (performance.now() < until) {
        await subject.call();
        done++;
      }
    }),
  );
  return { p50: percentile(times, 50), p99: percentile(times, 99), callsPerSecond: done / ((performance.now() - began) / 1000) };
}

/** An API token of a new user, who signs in to a workspace of their own (the embedded IdP's admin API makes the user). */
async function secondWorkspaceToken(url: string, adminJwt: string, clientSecret: string): Promise<string> {
  const password = `bench-${crypto.randomUUID()}`;
  const created = await fetch(`${url}/auth/admin/realms/loadplane/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminJwt}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'counter', enabled: true, credentials: [{ type: 'password', value: password, temporary: false }] }),
  });
  if (created.status !== 201) throw new Error(`creating the second user: ${created.status} ${await created.text()}`);
  const jwt = await passwordGrant(url, { username: 'counter', password, clientSecret });
  const token = await fetch(`${url}/api/v1/api-tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'budget counter' }),
  });
  return ((await token.json()) as { token: string }).token;
}

async function main() {
  const settings = parseArgs(process.argv.slice(2));
  const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-bench-mcp-'));
  const password = `bench-${crypto.randomUUID()}`;
  const clientSecret = `bench-${crypto.randomUUID()}`;
  const service = await startServiceProcess({
    env: { DATA_DIR: dataDir, LOCAL_AGENT: 'false', LOG_LEVEL: 'warn', BOOTSTRAP_ADMIN_USERNAME: 'admin', BOOTSTRAP_ADMIN_PASSWORD: password, AUTH_CLIENT_SECRET: clientSecret },
    embedded: true,
    timeoutMs: 120_000,
  });
  try {
    const jwt = await passwordGrant(service.url, { username: 'admin', password, clientSecret });
    const api = (path: string, body?: unknown, token = jwt) =>
      fetch(`${service.url}/api/v1${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const token = ((await (await api('/api-tokens', { name: 'mcp bench' })).json()) as { token: string }).token;
    // The budget's own row counts thousands of calls: in a workspace of its own, so list_runs keeps its budget.
    const counterToken = await secondWorkspaceToken(service.url, jwt, clientSecret);
    // 50 runs to list: pending, since no agent runs here, each a full task record.
    const test = (await (await api('/tests', { name: 'bench', tool: 'http', script: 'steps:\n  - {method: GET, url: http://127.0.0.1:9/}\n' })).json()) as { id: string };
    for (let i = 0; i < 50; i++) {
      const started = await api('/tasks', { testId: test.id });
      if (started.status !== 202) throw new Error(`starting run ${i}: ${started.status} ${await started.text()}`);
    }

    const mcpHeaders = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const mcp = (label: string, message: object, expect: string): Case => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, ...message });
      return {
        label,
        async call() {
          const response = await fetch(`${service.url}/api/mcp`, { method: 'POST', headers: mcpHeaders, body });
          const text = await response.text();
          if (response.status !== 200 || !text.includes(expect) || text.includes('"isError":true')) throw new Error(`${label}: ${response.status} ${text.slice(0, 300)}`);
        },
      };
    };
    const rest = (label: string, path: string, expect: (body: string) => boolean, method = 'GET', bearer = token): Case => ({
      label,
      async call() {
        const response = await fetch(`${service.url}${path}`, { method, headers: { authorization: `Bearer ${bearer}` } });
        const text = await response.text();
        if (response.status !== 200 || !expect(text)) throw new Error(`${label}: ${response.status} ${text.slice(0, 300)}`);
      },
    });
    // How many tools the list holds (the answer is one SSE frame whose data is the JSON-RPC result).
    const listed = await (await fetch(`${service.url}/api/mcp`, { method: 'POST', headers: mcpHeaders, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })).text();
    const toolCount = (JSON.parse(listed.slice(listed.indexOf('{'))) as { result: { tools: unknown[] } }).result.tools.length;
    const cases: Case[] = [
      rest('REST `GET /api/v1/tasks?limit=50`', '/api/v1/tasks?limit=50', (body) => (JSON.parse(body) as unknown[]).length === 50),
      mcp('MCP `tools/call` list_runs `{limit: 50}`', { method: 'tools/call', params: { name: 'list_runs', arguments: { limit: 50 } } }, '"next_cursor"'),
      mcp(`MCP \`tools/list\` (${toolCount} tools)`, { method: 'tools/list' }, '"validate_test"'),
      rest("REST `GET /api/v1/auth/me` (the endpoint's token check)", '/api/v1/auth/me', (body) => body.includes('"sub"')),
      rest("REST `POST /api/v1/usage/ai-tool-calls` (a tool call's count)", '/api/v1/usage/ai-tool-calls', (body) => body.includes('"remaining"'), 'POST', counterToken),
    ];
    for (const subject of cases) await subject.call();

    const results = new Map<string, Measured[]>(cases.map((subject) => [subject.label, []]));
    for (let round = 1; round <= settings.rounds; round++) {
      for (const subject of cases) {
        const measured = await measure(subject, settings);
        results.get(subject.label)!.push(measured);
        console.error(`  round ${round}: ${subject.label}: p50 ${measured.p50.toFixed(2)} ms, p99 ${measured.p99.toFixed(2)} ms, ${measured.callsPerSecond.toFixed(0)} calls/s`);
      }
    }
    /** The round with the median calls/s, per case. */
    const median = (label: string) => [...results.get(label)!].sort((a, b) => a.callsPerSecond - b.callsPerSecond)[Math.floor(settings.rounds / 2)]!;

    const usage = (await (await api('/usage', undefined, token)).json()) as { ai_tool_calls?: { used: number } };
    const lines = [
      `### MCP endpoint overhead (${new Date().toISOString().slice(0, 10)})`,
      '',
      machineDescription().markdown,
      `- ${settings.rounds} rounds; per case and round ${Math.ceil(settings.calls / 5)} warm-up calls, ${settings.calls} calls one after another (p50, p99), then ${settings.seconds} s with ${settings.concurrency} in flight (calls/s); the median round by calls/s`,
      '',
      '| call | p50 ms | p99 ms | calls/s |',
      '|---|---|---|---|',
      ...cases.map((subject) => {
        const m = median(subject.label);
        return `| ${subject.label} | ${m.p50.toFixed(2)} | ${m.p99.toFixed(2)} | ${m.callsPerSecond.toFixed(0)} |`;
      }),
      '',
    ];
    // Side by side: each round's list_runs against the same round's REST call, then the median of the rounds.
    const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const restRounds = results.get(cases[0]!.label)!;
    const mcpRounds = results.get(cases[1]!.label)!;
    const per = (pick: (m: Measured) => number, combine: (mcp: number, rest: number) => number) =>
      middle(mcpRounds.map((m, round) => combine(pick(m), pick(restRounds[round]!))));
    const list = median(cases[2]!.label);
    lines.push(
      `list_runs over MCP against the same REST call, per round (median of ${settings.rounds}): p50 +${per((m) => m.p50, (a, b) => a - b).toFixed(2)} ms ` +
        `(${per((m) => m.p50, (a, b) => a / b).toFixed(2)}x), p99 ${per((m) => m.p99, (a, b) => a / b).toFixed(2)}x, ` +
        `calls/s ${per((m) => m.callsPerSecond, (a, b) => a / b).toFixed(2)}x; tools/list p50 ${list.p50.toFixed(2)} ms. ` +
        `AI tool calls counted in the listing workspace: ${usage.ai_tool_calls?.used ?? 'not reported'}.`,
    );
    console.log(lines.join('\n'));
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
