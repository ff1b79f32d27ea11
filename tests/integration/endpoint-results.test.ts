/**
 * Results per endpoint and errors by group from real runs on the local agent, against a target started here that
 * counts per path: `/fast` answers at once, `/slow` after a fixed delay, `/fail` with 500. For each tool: the requests
 * of each named endpoint equal the target's count of its path, the slow endpoint's p50 is at least its delay, and the
 * errors grouped by status 500 equal the failing path's count. The `http` and `custom` tools always run; an engine's
 * case is skipped (saying so) only when the engine is not installed on this machine.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { locateEngineOnHost, requireOrSkip } from 'loadplane/plugin/testing';
import { artilleryEngine } from '../../plugins/load-tool-artillery/engine.ts';
import { gatlingEngine } from '../../plugins/load-tool-gatling/engine.ts';
import { jmeterEngine } from '../../plugins/load-tool-jmeter/engine.ts';
import { httpPlan } from '../../plugins/load-tool-jmeter/http-plan.ts';
import { k6OutputExtensionName, k6OutputProbe } from '../../plugins/load-tool-k6/engine.ts';
import { locustEngine } from '../../plugins/load-tool-locust/engine.ts';
import { waitForEnd, startAccepted, type TaskOptions } from '../helpers/engine-runs.ts';
import { findK6 } from '../helpers/k6-binary.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';

const slowMs = 60;

/** `/fast` at once, `/slow` after slowMs, `/fail` a 500; counting per path. */
function startPathTarget() {
  const served = new Map<string, number>();
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      served.set(path, (served.get(path) ?? 0) + 1);
      if (path === '/slow') await Bun.sleep(slowMs);
      if (path === '/fail') return new Response('internal error', { status: 500 });
      return new Response('ok');
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    count: (path: string) => served.get(path) ?? 0,
    reset: () => served.clear(),
    stop: () => server.stop(true),
  };
}

interface Endpoint {
  name: string;
  requests: number;
  errors: number;
  error_rate: number;
  requests_per_sec: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}
interface Group {
  endpoint: string;
  kind: string;
  code: string;
  message: string;
  count: number;
}

let fixture: ServiceWithAgent;
let target: ReturnType<typeof startPathTarget>;

beforeAll(async () => {
  target = startPathTarget();
  fixture = await startServiceWithAgent('endpoint-results');
}, 60_000);

afterAll(async () => {
  await fixture?.stop();
  target?.stop();
});

/**
 * Runs a task to its end against a fresh count; checks the endpoints named `names` (fast, slow, failing) against the
 * target's counts of /fast, /slow, /fail, and the 500s grouped under the failing one.
 */
async function runAndCheck(options: TaskOptions, names: { fast: string; slow: string; fail: string }, errorKind = 'status'): Promise<void> {
  const { ts, token } = fixture;
  target.reset();
  const id = await startAccepted(ts, token, options);
  const task = (await waitForEnd(ts, token, id, 120_000)) as { status: string; total_requests: number | null };
  const endpoints = (await (await ts.request(`/api/v1/tasks/${id}/endpoints`, { token })).json()) as Endpoint[];
  const errors = (await (await ts.request(`/api/v1/tasks/${id}/errors`, { token })).json()) as Group[];
  const detail = JSON.stringify({ task, endpoints, errors, served: { fast: target.count('/fast'), slow: target.count('/slow'), fail: target.count('/fail') } });
  const byName = new Map(endpoints.map((endpoint) => [endpoint.name, endpoint]));
  for (const [name, path] of [
    [names.fast, '/fast'],
    [names.slow, '/slow'],
    [names.fail, '/fail'],
  ] as const) {
    expect(target.count(path), detail).toBeGreaterThan(0);
    expect(byName.get(name)?.requests, `${name}: ${detail}`).toBe(target.count(path));
  }
  // Every request is some endpoint's.
  expect(endpoints.reduce((sum, endpoint) => sum + endpoint.requests, 0), detail).toBe(task.total_requests!);
  expect(byName.get(names.slow)!.p50, detail).toBeGreaterThanOrEqual(slowMs);
  expect(byName.get(names.fast)!.errors, detail).toBe(0);
  expect(byName.get(names.fail)!).toMatchObject({ errors: target.count('/fail'), error_rate: 1 });
  const failures = errors.filter((group) => group.endpoint === names.fail && group.kind === errorKind && group.code === '500');
  expect(failures, detail).toHaveLength(1);
  expect(failures[0]!.count, detail).toBe(target.count('/fail'));
  expect(failures[0]!.message.length).toBeGreaterThan(0);
}

describe('results per endpoint from real runs', () => {
  test('the http tool: step names, per-path counts, the slow step\'s p50, 500s grouped by status', async () => {
    const script = `
base_url: ${target.url}
steps:
  - name: fast page
    method: GET
    url: /fast
  - method: GET
    url: /slow
  - name: broken
    method: GET
    url: /fail
`;
    // The unnamed step's name is `METHOD path`.
    await runAndCheck({ tool: 'http', script, config: { vus: 2, duration: '3s' } }, { fast: 'fast page', slow: 'GET /slow', fail: 'broken' });
  }, 150_000);

  test('custom: named sample lines (`loadplane:sample <ms> ok|error:<code> <name>`)', async () => {
    // curl times each request; a status of 400 or more is an error with that code.
    const script = `#!/bin/sh
i=0
while [ "$i" -lt 15 ]; do
  for path in fast slow fail; do
    set -- $(curl -s -o /dev/null -w '%{http_code} %{time_total}' ${target.url}/$path)
    status=ok
    if [ "$1" -ge 400 ]; then status="error:$1"; fi
    echo "loadplane:sample $(echo "$2" | awk '{print $1 * 1000}') $status GET /$path"
  done
  i=$((i + 1))
done
`;
    await runAndCheck({ tool: 'custom', script }, { fast: 'GET /fast', slow: 'GET /slow', fail: 'GET /fail' });
  }, 150_000);
});

const locust = await locateEngineOnHost(locustEngine, { env: process.env });
const artillery = await locateEngineOnHost(artilleryEngine, { env: process.env });
const jmeter = await locateEngineOnHost(jmeterEngine, { env: process.env });
const gatling = await locateEngineOnHost(gatlingEngine, { env: process.env });

/** One more HTTP sampler of the thread group (and its empty subtree), named `label`, GETting `path` of the target. */
const jmeterSampler = (path: string, label: string) => `
        <HTTPSamplerProxy guiclass="HttpTestSampleGui" testclass="HTTPSamplerProxy" testname="${label}">
          <stringProp name="HTTPSampler.domain">127.0.0.1</stringProp>
          <stringProp name="HTTPSampler.port">${new URL(target.url).port}</stringProp>
          <stringProp name="HTTPSampler.protocol">http</stringProp>
          <stringProp name="HTTPSampler.path">${path}</stringProp>
          <stringProp name="HTTPSampler.method">GET</stringProp>
          <boolProp name="HTTPSampler.use_keepalive">true</boolProp>
          <elementProp name="HTTPsampler.Arguments" elementType="Arguments" guiclass="HTTPArgumentsPanel" testclass="Arguments" testname="User Defined Variables">
            <collectionProp name="Arguments.arguments"/>
          </elementProp>
        </HTTPSamplerProxy>
        <hashTree/>`;
const k6 = findK6();
const k6Output = k6 ? await locateEngineOnHost(k6OutputProbe(k6), { env: process.env }) : null;
const k6Missing = !k6
  ? 'k6 is not installed (run `bash scripts/install-engines k6`)'
  : k6Output?.found !== true || k6Output.version !== k6OutputExtensionName
    ? `${k6} has no loadplane output extension, which reports endpoints (run \`bash scripts/install-engines k6\`)`
    : null;

describe('results per endpoint from real engines', () => {
  test('k6: the `name` tag, else the URL', async () => {
    if (!requireOrSkip(k6Missing, 'the k6 per-endpoint test')) return;
    const script = `
import http from 'k6/http';
import { sleep } from 'k6';

export default function () {
  http.get('${target.url}/fast', { tags: { name: 'fast page' } });
  http.get('${target.url}/slow');
  http.get('${target.url}/fail', { tags: { name: 'broken' } });
  sleep(0.02);
}
`;
    await runAndCheck({ tool: 'k6', script, config: { vus: 2, duration: '3s' } }, { fast: 'fast page', slow: `${target.url}/slow`, fail: 'broken' });
  }, 150_000);

  test('locust: request names (`name=`, else the path)', async () => {
    if (!requireOrSkip(locust.found ? null : locust.reason, 'the Locust per-endpoint test')) return;
    const locustfile = `
from locust import HttpUser, constant, task


class Visitor(HttpUser):
    host = "${target.url}"
    wait_time = constant(0.05)

    @task
    def all_three(self):
        self.client.get("/fast", name="fast page")
        self.client.get("/slow")
        self.client.get("/fail", name="broken")
`;
    // An unnamed request's name is its path, as in Locust's own statistics.
    await runAndCheck({ tool: 'locust', script: locustfile, config: { vus: 2, duration: '4s' } }, { fast: 'fast page', slow: '/slow', fail: 'broken' });
  }, 150_000);

  test('artillery: the request `name`, else its URL', async () => {
    if (!requireOrSkip(artillery.found ? null : artillery.reason, 'the Artillery per-endpoint test')) return;
    const script = `
config:
  target: "${target.url}"
  phases:
    - duration: 3
      arrivalRate: 4
scenarios:
  - flow:
      - get:
          url: "/fast"
          name: "fast page"
      - get:
          url: "/slow"
      - get:
          url: "/fail"
          name: "broken"
`;
    await runAndCheck({ tool: 'artillery', script }, { fast: 'fast page', slow: '/slow', fail: 'broken' });
  }, 150_000);

  test('jmeter: the sampler labels', async () => {
    if (!requireOrSkip(jmeter.found ? null : jmeter.reason, 'the JMeter per-endpoint test')) return;
    // Two threads, 12 rounds of the three samplers; the first sampler's label is `GET /fast`.
    const plan = httpPlan({ url: `${target.url}/fast`, threads: 2, loops: 12, extra: jmeterSampler('/slow', 'slow page') + jmeterSampler('/fail', 'broken') });
    await runAndCheck({ tool: 'jmeter', script: plan }, { fast: 'GET /fast', slow: 'slow page', fail: 'broken' });
  }, 150_000);

  test('gatling: the request names', async () => {
    if (!requireOrSkip(gatling.found ? null : gatling.reason, 'the Gatling per-endpoint test')) return;
    const simulation = `
import static io.gatling.javaapi.core.CoreDsl.*;
import static io.gatling.javaapi.http.HttpDsl.*;

import io.gatling.javaapi.core.*;
import io.gatling.javaapi.http.*;

public class EndpointSimulation extends Simulation {
  HttpProtocolBuilder protocol = http.baseUrl("${target.url}");
  ScenarioBuilder scenario = scenario("endpoints").repeat(10).on(
      exec(http("fast page").get("/fast")).exec(http("slow page").get("/slow")).exec(http("broken").get("/fail")));

  {
    setUp(scenario.injectOpen(atOnceUsers(2))).protocols(protocol);
  }
}
`;
    await runAndCheck({ tool: 'gatling', script: simulation }, { fast: 'fast page', slow: 'slow page', fail: 'broken' });
  }, 180_000);
});
