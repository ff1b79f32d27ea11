/**
 * GET /metrics, the service's own Prometheus metrics: always behind a bearer token, loopback callers included; the
 * token is METRICS_TOKEN, or without it one generated once (in the database, copied to DATA_DIR/metrics-token, 0600).
 * The exposition holds responses by status class, runs by status, deliveries by state, queue depths and connected
 * agents, and they move with what happens.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { rawAgent } from '../helpers/isolation-world.ts';
import { createMetricRun } from '../helpers/metric-points.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let ts: TestService;
let url: string;
let guarded: TestService;
const token = 'scrape-token-0123456789abcdef';

beforeAll(async () => {
  ts = await startTestService({ port: await freePort(), env: { TRUSTED_PROXIES: '127.0.0.1' } });
  url = await ts.listen();
  guarded = await startTestService({ env: { METRICS_TOKEN: token } });
}, 60_000);
afterAll(async () => {
  await ts?.stop();
  await guarded?.stop();
});

/** The samples of the exposition as `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

async function scrape() {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${ts.service.metricsToken}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return samples(await response.text());
}

describe('GET /metrics', () => {
  test('answers the generated token in the exposition format; the numbers follow requests, runs and agents', async () => {
    const before = await scrape();
    expect(before.get('loadplane_build_info{version="0.1.0"}')).toBe(1);
    for (const name of ['loadplane_http_responses_total{class="2xx"}', 'loadplane_runs{status="pending"}', 'loadplane_webhook_deliveries{state="waiting"}',
      'loadplane_job_queue_depth{queue="dispatch"}', 'loadplane_job_queue_depth{queue="webhook_deliveries"}', 'loadplane_job_queue_depth{queue="git_syncs"}', 'loadplane_agents_connected']) {
      expect(before.has(name), name).toBe(true);
    }

    expect((await fetch(`${url}/api/v1/nowhere`)).status).toBe(404);
    expect((await fetch(`${url}/api/v1/machines`)).status).toBe(401);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const owner = await ts.createUser('health-owner');
    await createMetricRun(ts, owner, 'health');
    const agent = await rawAgent(url, owner, 'health-gen');
    try {
      const after = await scrape();
      expect(after.get('loadplane_http_responses_total{class="4xx"}')!).toBeGreaterThan(before.get('loadplane_http_responses_total{class="4xx"}')!);
      expect(after.get('loadplane_http_responses_total{class="2xx"}')!).toBeGreaterThan(before.get('loadplane_http_responses_total{class="2xx"}')!);
      // The new run found an online machine (the agent) or waits for one: either way it counts.
      const runs = ['pending', 'running'].reduce((n, status) => n + after.get(`loadplane_runs{status="${status}"}`)!, 0);
      expect(runs).toBe(['pending', 'running'].reduce((n, status) => n + before.get(`loadplane_runs{status="${status}"}`)!, 0) + 1);
      expect(after.get('loadplane_agents_connected')).toBe(before.get('loadplane_agents_connected')! + 1);
    } finally {
      agent.socket.close();
    }
  });

  test('loopback is no credential: a loopback socket without the token, or with a wrong one, gets 401', async () => {
    // Before, an unset METRICS_TOKEN answered any loopback caller: a script of the local agent read every workspace's counts.
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer ' }, { authorization: `Bearer ${ts.service.metricsToken}x` }, { 'x-forwarded-for': '127.0.0.1' }];
    for (const headers of attempts) {
      const answer = await fetch(`${url}/metrics`, { headers });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      expect(((await answer.json()) as { error: string }).error).toBe('unauthorized');
    }
    expect((await ts.service.app.handle(new Request('http://localhost/metrics'))).status).toBe(401);
  });

  test('without METRICS_TOKEN the generated token is in DATA_DIR/metrics-token, owner-only, and a later start keeps it', async () => {
    const file = join(ts.dataDir, 'metrics-token');
    expect((await readFile(file, 'utf8')).trim()).toBe(ts.service.metricsToken);
    expect(ts.service.metricsToken.length).toBeGreaterThanOrEqual(32);
    expect(((await stat(file)).mode & 0o777).toString(8)).toBe('600');
    // A service on the same DATA_DIR (its own empty database here) takes the token from the file, as an upgrade does.
    const again = await startTestService({ dataDir: ts.dataDir });
    try {
      expect(again.service.metricsToken).toBe(ts.service.metricsToken);
    } finally {
      await again.stop();
    }
  }, 60_000);

  test('with METRICS_TOKEN: the bearer token opens it from anywhere; none or a wrong one is a 401', async () => {
    const get = (authorization?: string) =>
      guarded.service.app.handle(new Request('http://localhost/metrics', { headers: authorization ? { authorization } : {} }));
    expect((await get()).status).toBe(401);
    expect((await get(`Bearer ${token}x`)).status).toBe(401);
    expect((await get(`Bearer ${token.slice(0, -1)}`)).status).toBe(401);
    const ok = await get(`Bearer ${token}`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('# TYPE loadplane_runs gauge');
    // A configured token is never written down; the service uses it as given.
    expect(guarded.service.metricsToken).toBe(token);
    expect(await readFile(join(guarded.dataDir, 'metrics-token'), 'utf8').catch(() => null)).toBeNull();
  });
});
