/**
 * An attacker's requests that used to freeze or break the service for everyone (issue 17's review): a regex that
 * backtracks for ever in a metric or PromQL label matcher, a JSON body nested 100,000 deep, timestamps past what the
 * database holds. Each now answers at once, and the service keeps answering others meanwhile.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { inviteAndAccept } from '../helpers/invitations.ts';
import { minuteAnHourAgo, type MetricRun, seedTwoMachineMinute } from '../helpers/metric-points.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let ts: TestService;
let owner: string;
let viewer: string;
let run: MetricRun;
const base = minuteAnHourAgo();
/** Exponential on a backtracking engine: `(.*){30}` tries every split of the value into 30 parts before failing at Z. */
const catastrophic = '(.*){30}Z';

beforeAll(async () => {
  ts = await startTestService();
  owner = await ts.createUser('hostile-owner');
  viewer = await ts.createUser('hostile-viewer');
  run = await seedTwoMachineMinute(ts, owner, {
    base,
    machineA: '00000000-0000-4000-8000-0000000000a1',
    machineB: '00000000-0000-4000-8000-0000000000b1',
  });
  await ts.request('/api/v1/workspace', { token: viewer }); // signed in once: an invitation finds only known users
  const { accepted } = await inviteAndAccept(ts, owner, 'hostile-viewer', 'viewer', viewer);
  if (!accepted) throw new Error('the viewer was not invited');
});
afterAll(() => ts.stop());

const prom = (path: string, token: string, headers: Record<string, string> = {}) => ts.request(`/api/v1/prometheus/api/v1${path}`, { token, headers });
/** The viewer acts in the owner's workspace, not in the one of their own. */
const inOwners = () => ({ 'x-workspace-id': run.workspaceId });

describe('a catastrophic regex in a label matcher', () => {
  test('five at once from an empty workspace, and from a viewer over real series: all answered, /healthz meanwhile too', async () => {
    const empty = await ts.createUser('hostile-empty');
    const selector = encodeURIComponent(`{__name__=~"${catastrophic}"}`);
    const attacks = [
      ...Array.from({ length: 5 }, () => prom(`/query?query=${selector}&time=${base + 60}`, empty)),
      ...Array.from({ length: 5 }, () => prom(`/series?match[]=${selector}`, empty)),
      prom(`/query?query=${encodeURIComponent(`loadplane_requests_total{run=~"${catastrophic}"}`)}&time=${base + 60}`, viewer, inOwners()),
      ts.request(`/api/v1/metrics/query?metric=requests&start=${base}&end=${base + 60}&run=~${encodeURIComponent(catastrophic)}`, { token: viewer, headers: inOwners() }),
      ts.request(`/api/v1/metrics/query?metric=latency_p95&start=${base}&end=${base + 60}&machine=!~${encodeURIComponent(catastrophic)}&by=machine`, {
        token: viewer,
        headers: inOwners(),
      }),
    ];
    // On the backtracking engine this never came back (a test timeout); on RE2 it is an ordinary query.
    expect((await ts.request('/healthz')).status).toBe(200);
    const answers = await Promise.all(attacks);
    for (const [i, answer] of answers.entries()) expect(answer.status, `attack ${i}: ${await answer.clone().text()}`).toBe(200);
    const negated = (await answers.at(-1)!.json()) as { series: { labels: { machine: string } }[] };
    expect(negated.series.map((s) => s.labels.machine).sort()).toEqual(['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000b1']);
    const viewerQuery = (await answers.at(-3)!.json()) as { data: { result: unknown[] } };
    expect(viewerQuery.data.result).toEqual([]);
  });

  test('RE2 syntax, as Prometheus: backreferences and lookarounds are a 400 naming the syntax, not a 500', async () => {
    for (const pattern of ['(a)\\1', '(?=a)a', '(?<!a)b']) {
      const response = await ts.request(`/api/v1/metrics/query?metric=requests&run=~${encodeURIComponent(pattern)}`, { token: owner });
      expect(response.status, pattern).toBe(400);
      expect(((await response.json()) as { message: string }).message).toMatch(/bad regular expression for run: .*RE2 syntax/);
    }
    const dotall = await ts.request(`/api/v1/metrics/query?metric=requests&start=${base}&end=${base + 60}&run=~${run.taskId.slice(0, 8)}.*`, { token: owner });
    expect(((await dotall.json()) as { series: unknown[] }).series).toHaveLength(1);
  });
});

describe('a JSON body nested 100,000 deep', () => {
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  test('is a 400 that says so, on a validated route, on the OTLP receiver, and as an object of objects', async () => {
    const asObjects = '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000);
    for (const [path, body] of [
      ['/api/v1/tests', deep],
      ['/api/v1/tests', `{"name":"x","tool":"custom","script":"echo","extra":${asObjects}}`],
      ['/api/v1/configs', deep],
      ['/api/v1/otlp/v1/metrics', `{"resourceMetrics":${deep}}`],
    ] as const) {
      const response = await ts.request(path, { method: 'POST', token: owner, headers: { 'content-type': 'application/json' }, body });
      expect(response.status, path).toBe(400);
      expect(((await response.json()) as { message: string }).message, path).toMatch(/nests objects and arrays more than 64 deep/);
    }
    // Brackets inside strings are text, not nesting.
    const script = `#!/bin/sh\necho '${'['.repeat(500)}'`;
    const saved = await ts.request('/api/v1/tests', { method: 'POST', token: owner, json: { name: 'brackets in a string', tool: 'custom', script } });
    expect(saved.status).toBe(201);
  });


});

describe('timestamps past what the database holds', () => {
  test('metric and Prometheus queries answer with what is stored up to year 9999, as Prometheus does with its own bounds', async () => {
    const far = '99999999999999';
    const cases = [
      `/api/v1/metrics/query?metric=requests&start=${far}&end=${far}1`,
      `/api/v1/metrics/query?metric=latency_p95&start=${base}&end=${far}&step=1000y`,
      `/api/v1/prometheus/api/v1/query?query=loadplane_requests_total&time=${far}`,
      `/api/v1/prometheus/api/v1/query?query=${encodeURIComponent('rate(loadplane_requests_total[100000y])')}&time=${base + 60}`,
      `/api/v1/prometheus/api/v1/query_range?query=loadplane_requests_total&start=${far}&end=199999999999999&step=100000000000`,
      `/api/v1/prometheus/api/v1/series?match[]=loadplane_requests_total&start=-292273086-05-16T16:47:06Z&end=292277025-08-17T07:12:55.807Z`,
      `/api/v1/prometheus/api/v1/labels?start=0&end=${far}`,
      `/api/v1/prometheus/api/v1/label/run/values?start=${far}`,
    ];
    for (const path of cases) {
      const response = await ts.request(path, { token: owner });
      expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
    }
    const series = (await (await ts.request(cases[5]!, { token: owner })).json()) as { data: { run: string }[] };
    expect(series.data.map((s) => s.run)).toContain(run.taskId);
  });
});
