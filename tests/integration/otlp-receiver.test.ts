/**
 * The OTLP/HTTP metrics receiver through the REST API (PGlite, or PostgreSQL with DATABASE_URL): JSON exports of every
 * metric type land in GET /tasks/{id}/otel, attributed by `loadplane.task_id` or by the run active at the point's
 * time; malformed, oversized and wrongly typed bodies get clear answers; a workspace never reaches another's runs.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { gzipSync } from 'node:zlib';
import { decodeMetricsRequest } from '../../core/domain/otlp/otlp-protobuf.ts';
import { maxDataPointsPerRequest } from '../../core/domain/otlp/otlp-model.ts';
import { createOtelRead } from '../../core/services/otel/otel-read.ts';
import { sqlOf } from '../../core/services/sql.ts';
import { counter, exponentialHistogramMetric, exportBody, gauge, histogramMetric, type Json } from '../helpers/otlp-json.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let ts: TestService;
let a: { token: string; jwt: string };
let b: { token: string; jwt: string };
/** Runs of A with fixed windows: one alone, then two that overlap. */
const t0 = Date.UTC(2026, 10, 1, 12, 0, 0);
const runs: { id: string; public_id: string }[] = [];
let bRun: { id: string };

const post = (token: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  ts.request('/api/v1/otlp/v1/metrics', { method: 'POST', token, headers, body: typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body) });

const otel = async (token: string, taskId: string, query = '') => {
  const response = await ts.request(`/api/v1/tasks/${taskId}/otel${query}`, { token });
  return { response, body: response.status === 200 ? ((await response.json()) as { metrics: { name: string; unit: string; type: string; labels: Record<string, string>; points: [number, number][] }[] }) : null };
};

async function startRun(token: string) {
  const created = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'otel', tool: 'custom', script: 'echo hi' } });
  const { id: testId } = (await created.json()) as { id: string };
  const response = await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId } });
  expect(response.status).toBe(202);
  return (await response.json()) as { id: string; public_id: string };
}

/** Gives a run a fixed window (as if it had run then): attribution by time reads started_at and finished_at. */
async function setWindow(taskId: string, startMs: number, endMs: number | null) {
  await sqlOf(ts.service.database).all(`update tasks set status = ?, started_at = ?, finished_at = ? where id = ?`, [
    endMs === null ? 'running' : 'completed',
    new Date(startMs),
    endMs === null ? null : new Date(endMs),
    taskId,
  ]);
}

beforeAll(async () => {
  ts = await startTestService();
  a = await ts.apiToken('otel-a');
  b = await ts.apiToken('otel-b');
  for (let i = 0; i < 3; i++) runs.push(await startRun(a.token));
  await setWindow(runs[0]!.id, t0, t0 + 60_000);
  await setWindow(runs[1]!.id, t0 + 120_000, t0 + 180_000);
  await setWindow(runs[2]!.id, t0 + 150_000, t0 + 240_000);
  bRun = await startRun(b.token);
  await setWindow(bRun.id, t0 + 300_000, t0 + 360_000);
}, 60_000);
afterAll(() => ts.stop());

describe('OTLP JSON export', () => {
  test('every metric type lands in GET /tasks/{id}/otel of the run named by loadplane.task_id', async () => {
    const body = exportBody({
      resource: { 'service.name': 'checkout', 'loadplane.task_id': runs[0]!.id, 'process.pid': 42 },
      metrics: [
        gauge('queue.depth', [{ ms: t0 + 1000, value: 3.5, attributes: { queue: 'orders' } }, { ms: t0 + 2000, value: 4, attributes: { queue: 'orders' } }], '{items}'),
        counter('http.requests', [{ ms: t0 + 2000, value: 120, attributes: { route: '/pay', ok: true } }]),
        histogramMetric('http.duration', t0 + 2000, { count: 10, sum: 123.5, min: 2, max: 40 }),
        exponentialHistogramMetric('db.duration', t0 + 2000, { count: 7, sum: 70 }),
      ],
    });
    const response = await post(a.token, body);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({});

    const { body: read } = await otel(a.token, runs[0]!.public_id);
    const byName = Object.fromEntries(read!.metrics.map((m) => [m.name, m]));
    expect(Object.keys(byName).sort()).toEqual(
      ['db.duration.count', 'db.duration.sum', 'http.duration.count', 'http.duration.max', 'http.duration.min', 'http.duration.sum', 'http.requests', 'queue.depth'].sort(),
    );
    expect(byName['queue.depth']).toEqual({
      name: 'queue.depth',
      unit: '{items}',
      type: 'gauge',
      labels: { 'service.name': 'checkout', queue: 'orders' },
      points: [
        [(t0 + 1000) / 1000, 3.5],
        [(t0 + 2000) / 1000, 4],
      ],
    });
    expect(byName['http.requests']).toMatchObject({ type: 'sum', labels: { 'service.name': 'checkout', route: '/pay', ok: 'true' }, points: [[(t0 + 2000) / 1000, 120]] });
    expect(byName['http.duration.count']!.points).toEqual([[(t0 + 2000) / 1000, 10]]);
    expect(byName['http.duration.sum']!.points).toEqual([[(t0 + 2000) / 1000, 123.5]]);
    expect(byName['http.duration.max']).toMatchObject({ type: 'histogram', unit: 'ms', points: [[(t0 + 2000) / 1000, 40]] });
    expect(byName['db.duration.sum']).toMatchObject({ type: 'exponential_histogram', points: [[(t0 + 2000) / 1000, 70]] });
  });

  test('a point without a task id goes to the one run active at its time; none or several active: refused in partialSuccess', async () => {
    const body = exportBody({
      resource: { 'service.name': 'by-time' },
      metrics: [
        gauge('by.time', [
          { ms: t0 + 30_000, value: 1 }, // run 0 alone
          { ms: t0 + 65_000, value: 2 }, // 5 s after run 0 ended: within the grace
          { ms: t0 + 100_000, value: 3 }, // nothing active
          { ms: t0 + 130_000, value: 4 }, // run 1 alone
          { ms: t0 + 160_000, value: 5 }, // runs 1 and 2 overlap
          { ms: t0 + 200_000, value: 6 }, // run 2 alone
          { ms: t0 + 330_000, value: 7 }, // B's run: never A's
        ]),
      ],
    });
    const response = await post(a.token, body);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { partialSuccess: { rejectedDataPoints: string; errorMessage: string } };
    expect(answer.partialSuccess.rejectedDataPoints).toBe('3');
    expect(answer.partialSuccess.errorMessage).toContain('2 data points: no run of this workspace was active');
    expect(answer.partialSuccess.errorMessage).toContain('1 data point: several runs of this workspace were active');
    const values = async (taskId: string) => (await otel(a.token, taskId, '?metric=by.time')).body!.metrics.flatMap((m) => m.points.map((p) => p[1]));
    expect(await values(runs[0]!.id)).toEqual([1, 2]);
    expect(await values(runs[1]!.id)).toEqual([4]);
    expect(await values(runs[2]!.id)).toEqual([6]);
    expect((await otel(b.token, bRun.id)).body!.metrics).toEqual([]);
  });

  test('a retried export stores nothing twice; a gzip body is read like a plain one', async () => {
    const body = exportBody({ resource: { 'loadplane.task_id': runs[1]!.public_id }, metrics: [gauge('retried', [{ ms: t0 + 125_000, value: 9 }])] });
    expect((await post(a.token, body)).status).toBe(200);
    const gzipped = gzipSync(JSON.stringify(body));
    const response = await post(a.token, new Uint8Array(gzipped), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(response.status).toBe(200);
    expect((await otel(a.token, runs[1]!.id, '?metric=retried')).body!.metrics[0]!.points).toEqual([[(t0 + 125_000) / 1000, 9]]);
  });

  test('an empty export is a success; a task id of another workspace or of nobody refuses those points alike', async () => {
    expect(await (await post(a.token, {})).json()).toEqual({});
    for (const ref of [bRun.id, crypto.randomUUID(), 'run-nobody']) {
      const response = await post(a.token, exportBody({ metrics: [gauge('foreign', [{ ms: t0 + 330_000, value: 1, attributes: { 'loadplane.task_id': ref } }])] }));
      expect(response.status).toBe(200);
      const answer = (await response.json()) as { partialSuccess: { rejectedDataPoints: string; errorMessage: string } };
      expect(answer.partialSuccess).toEqual({ rejectedDataPoints: '1', errorMessage: `1 data point: no task ${JSON.stringify(ref)} in this workspace` });
    }
    expect((await otel(b.token, bRun.id)).body!.metrics).toEqual([]);
    // B cannot read A's run either: the plain 404, by UUID and by public id.
    for (const id of [runs[0]!.id, runs[0]!.public_id]) {
      const { response } = await otel(b.token, id);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'not_found', message: 'task not found' });
    }
  });
});

describe('bad exports', () => {
  const expectError = async (response: Response, status: number, error: string, message: RegExp) => {
    const body = (await response.json()) as Json;
    expect({ status: response.status, error: body.error }).toEqual({ status, error });
    expect(String(body.message)).toMatch(message);
  };

  test('malformed JSON, a wrong field type, bad protobuf and bad gzip are 400s that say what is wrong', async () => {
    await expectError(await post(a.token, '{"resourceMetrics": ['), 400, 'bad_request', /malformed JSON body/);
    await expectError(await post(a.token, { resourceMetrics: {} }), 400, 'bad_request', /resourceMetrics must be an array/);
    for (const notAnObject of ['null', '[]', '7']) {
      await expectError(await post(a.token, notAnObject), 400, 'bad_request', /the body must be an object/);
    }
    await expectError(
      await post(a.token, exportBody({ metrics: [{ name: 'x', gauge: { dataPoints: [{ asDouble: 'lots' }] } }] })),
      400,
      'bad_request',
      /resourceMetrics\[0\]\.scopeMetrics\[0\]\.metrics\[0\]\.gauge\.dataPoints\[0\]\.asDouble must be a number/,
    );
    const protobuf = { 'content-type': 'application/x-protobuf' };
    await expectError(await post(a.token, new Uint8Array([0x0a, 0x20, 0x01]), protobuf), 400, 'bad_request', /malformed protobuf body: truncated/);
    await expectError(await post(a.token, new Uint8Array([0xff, 0xff, 0xff]), protobuf), 400, 'bad_request', /malformed protobuf body/);
    await expectError(await post(a.token, new Uint8Array([1, 2, 3, 4]), { ...protobuf, 'content-encoding': 'gzip' }), 400, 'bad_request', /not valid gzip/);
  });

  test('another media type or encoding is a 415 naming the two OTLP encodings', async () => {
    await expectError(await post(a.token, 'name=x', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type', /application\/x-protobuf or application\/json \(not text\/plain\)/);
    await expectError(await post(a.token, '{}', { 'content-type': 'application/json', 'content-encoding': 'br' }), 415, 'unsupported_media_type', /Content-Encoding br/);
  });

  test(`more than ${maxDataPointsPerRequest} data points, a body over the limit or a gzip bomb are 413s`, async () => {
    const many = Array.from({ length: maxDataPointsPerRequest + 1 }, (_, i) => ({ ms: t0 + i, value: i }));
    await expectError(await post(a.token, exportBody({ metrics: [gauge('too.many', many)] })), 413, 'payload_too_large', /at most 10000 per request/);
    await expectError(await post(a.token, `{"pad": "${'x'.repeat(3 * 1024 * 1024)}"}`), 413, 'payload_too_large', /exceeds the limit/);
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    await expectError(await post(a.token, new Uint8Array(bomb), { 'content-type': 'application/json', 'content-encoding': 'gzip' }), 413, 'payload_too_large', /inflates past the limit/);
    // Nothing of the refused exports was stored.
    const rows = await sqlOf(ts.service.database).all<{ n: number }>(`select count(*)::int as n from otel_series where name = 'too.many'`);
    expect(rows[0]!.n).toBe(0);
  });

  test('no token is a 401; a token without metrics:read or runs:write is a 403; either scope may send', async () => {
    const anonymous = await ts.request('/api/v1/otlp/v1/metrics', { method: 'POST', json: {} });
    expect(anonymous.status).toBe(401);
    for (const [scope, status] of [['tests:read', 403], ['metrics:read', 200], ['runs:write', 200]] as const) {
      const created = await ts.request('/api/v1/api-tokens', { method: 'POST', token: a.jwt, json: { name: scope, scopes: [scope] } });
      const { token } = (await created.json()) as { token: string };
      expect((await post(token, {})).status, scope).toBe(status);
    }
  });
});

describe('GET /tasks/{id}/otel', () => {
  test('pages by series with Link and X-Next-Cursor, filters by metric name, and refuses a bad cursor', async () => {
    const series = Array.from({ length: 5 }, (_, i) => gauge('paged', [{ ms: t0 + 200_000 + i, value: i, attributes: { n: i } }]));
    expect((await post(a.token, exportBody({ resource: { 'loadplane.task_id': runs[2]!.id }, metrics: series }))).status).toBe(200);
    const seen: number[] = [];
    let next: string | null = `/api/v1/tasks/${runs[2]!.id}/otel?metric=paged&limit=2`;
    let pages = 0;
    while (next) {
      const response = await ts.request(next, { token: a.token });
      expect(response.status).toBe(200);
      const page = (await response.json()) as { metrics: { name: string; points: [number, number][] }[] };
      expect(page.metrics.length).toBeLessThanOrEqual(2);
      for (const metric of page.metrics) expect(metric.name).toBe('paged');
      seen.push(...page.metrics.flatMap((m) => m.points.map((p) => p[1])));
      const link = response.headers.get('link');
      if (link) expect(response.headers.get('x-next-cursor')).toBeTruthy();
      next = link ? /^<([^>]+)>/.exec(link)![1]! : null;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect((await otel(a.token, runs[2]!.id, '?cursor=bm9wZQ')).response.status).toBe(400);
    expect((await otel(a.token, runs[2]!.id, '?limit=0')).response.status).toBe(400);
  });

  test('a series longer than the point budget continues on the next page, each point once', async () => {
    const points = Array.from({ length: 7 }, (_, i) => ({ ms: t0 + 210_000 + i * 10, value: i }));
    await post(a.token, exportBody({ resource: { 'loadplane.task_id': runs[2]!.id }, metrics: [gauge('long', points), gauge('long', [{ ms: t0 + 210_000, value: 99, attributes: { other: 'yes' } }])] }));
    const read = createOtelRead({ db: ts.service.database, maxPointsPerPage: 3 });
    const values: number[] = [];
    let cursor = null;
    let pages = 0;
    do {
      const page = await read.page(runs[2]!.id, { limit: 100, cursor, metric: 'long' });
      expect(page.metrics.reduce((n, m) => n + m.points.length, 0)).toBeLessThanOrEqual(3);
      values.push(...page.metrics.flatMap((m) => m.points.map((p) => p[1])));
      cursor = page.next;
      pages += 1;
    } while (cursor);
    expect(values).toEqual([0, 1, 2, 3, 4, 5, 6, 99]);
    expect(pages).toBe(3);
  });
});

describe('storage', () => {
  test("deleting a run's series deletes its points (points carry no foreign key; a trigger does it)", async () => {
    const sql = sqlOf(ts.service.database);
    const count = async () => (await sql.all<{ n: number }>(`select count(*)::int as n from otel_points p join otel_series s on s.id = p.series_id where s.task_id = ?`, [runs[2]!.id]))[0]!.n;
    const all = async () => (await sql.all<{ n: number }>('select count(*)::int as n from otel_points'))[0]!.n;
    const before = await all();
    const held = await count();
    expect(held).toBeGreaterThan(0);
    await sql.all('delete from otel_series where task_id = ?', [runs[2]!.id]);
    expect(await all()).toBe(before - held);
  });
});

describe('the protobuf decoder', () => {
  test('skips unknown fields and reads an empty request as no resources', () => {
    expect(decodeMetricsRequest(new Uint8Array(0), 10)).toEqual({ resources: [], dataPoints: 0 });
    // Field 9 (unknown, varint 150) then an empty resource_metrics.
    expect(decodeMetricsRequest(new Uint8Array([0x48, 0x96, 0x01, 0x0a, 0x00]), 10)).toEqual({ resources: [{ attributes: {}, metrics: [] }], dataPoints: 0 });
  });
});
