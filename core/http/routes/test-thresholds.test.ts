/** A test's `thresholds` through /tests: stored and shown, replaced and removed by PATCH, refused with a 400 naming the item and field. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;
let token: string;

const script = '#!/bin/sh\necho hello\n';

async function create(body: Record<string, unknown>) {
  const response = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'gated', tool: 'custom', script, ...body } });
  return { response, body: (await response.json()) as Record<string, unknown> & { message?: string; error?: string } };
}

async function patch(id: string, json: Record<string, unknown>) {
  const response = await ts.request(`/api/v1/tests/${id}`, { method: 'PATCH', token, json });
  return { response, body: (await response.json()) as Record<string, unknown> & { message?: string; error?: string } };
}

const listed = async (id: string) =>
  ((await (await ts.request('/api/v1/tests', { token })).json()) as { id: string; thresholds: unknown }[]).find((t) => t.id === id);

beforeAll(async () => {
  ts = await startTestService();
  token = await ts.createUser('threshold-owner');
});
afterAll(() => ts.stop());

describe('thresholds: happy paths', () => {
  test('created with thresholds, the answer and the list show them as given', async () => {
    const thresholds = [
      { metric: 'p95', op: '<', value: 200 },
      { metric: 'error_rate', endpoint: 'login', op: '<=', value: 0.01, abort: true },
      { metric: 'requests_per_sec', op: '>=', value: 50.5 },
    ];
    const { response, body } = await create({ thresholds });
    expect(response.status).toBe(201);
    expect(body.thresholds).toEqual(thresholds);
    expect((await listed(body.id as string))!.thresholds).toEqual(thresholds);
  });

  test('absent or null thresholds are none: []', async () => {
    const absent = await create({});
    expect(absent.response.status).toBe(201);
    expect(absent.body.thresholds).toEqual([]);
    const nothing = await create({ thresholds: null });
    expect(nothing.response.status).toBe(201);
    expect(nothing.body.thresholds).toEqual([]);
    expect((await listed(nothing.body.id as string))!.thresholds).toEqual([]);
  });

  test('PATCH replaces the list (alone, it is a change), and null or [] removes it', async () => {
    const { body: created } = await create({ thresholds: [{ metric: 'p99', op: '<', value: 500 }] });
    const replaced = await patch(created.id as string, { thresholds: [{ metric: 'p50', op: '<', value: 20, abort: true }] });
    expect(replaced.response.status).toBe(200);
    expect(replaced.body.thresholds).toEqual([{ metric: 'p50', op: '<', value: 20, abort: true }]);
    const renamed = await patch(created.id as string, { name: 'gated again' });
    expect(renamed.body.thresholds).toEqual([{ metric: 'p50', op: '<', value: 20, abort: true }]);
    const removed = await patch(created.id as string, { thresholds: null });
    expect(removed.response.status).toBe(200);
    expect(removed.body.thresholds).toEqual([]);
    await patch(created.id as string, { thresholds: [{ metric: 'p50', op: '<', value: 20 }] });
    expect((await patch(created.id as string, { thresholds: [] })).body.thresholds).toEqual([]);
    expect((await listed(created.id as string))!.thresholds).toEqual([]);
  });

  test('a new task has no verdict and no threshold results yet', async () => {
    const { body: created } = await create({ thresholds: [{ metric: 'p95', op: '<', value: 200 }] });
    const started = await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId: created.id } });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    const task = (await (await ts.request(`/api/v1/tasks/${id}`, { token })).json()) as Record<string, unknown>;
    expect(task).toMatchObject({ status: 'pending', verdict: null, threshold_results: [] });
    await ts.request(`/api/v1/tasks/${id}`, { method: 'DELETE', token });
    const cancelled = (await (await ts.request(`/api/v1/tasks/${id}`, { token })).json()) as Record<string, unknown>;
    expect(cancelled).toMatchObject({ status: 'cancelled', verdict: null, threshold_results: [] });
  });
});

describe('thresholds: refused with 400 naming the item and field, on create and on patch', () => {
  const cases: [string, unknown, string[]][] = [
    ['not a list', { metric: 'p95', op: '<', value: 1 }, ['thresholds']],
    ['an unknown metric', [{ metric: 'p95', op: '<', value: 1 }, { metric: 'p90', op: '<', value: 1 }], ['thresholds', '1', 'metric']],
    ['an unknown operator', [{ metric: 'p95', op: '==', value: 1 }], ['thresholds', '0', 'op']],
    ['a missing value', [{ metric: 'p95', op: '<' }], ['thresholds', '0', 'value']],
    ['a string value', [{ metric: 'p95', op: '<', value: '200' }], ['thresholds', '0', 'value']],
    ['a negative value', [{ metric: 'p95', op: '<', value: -5 }], ['thresholds', '0', 'value']],
    ['an error rate above 1', [{ metric: 'p95', op: '<', value: 1 }, { metric: 'error_rate', op: '<', value: 2 }], ['thresholds[1].value', 'fraction from 0 to 1']],
    ['a blank endpoint', [{ metric: 'p95', endpoint: '  ', op: '<', value: 1 }], ['thresholds', '0', 'endpoint']],
    ['a non-boolean abort', [{ metric: 'p95', op: '<', value: 1, abort: 'yes' }], ['thresholds', '0', 'abort']],
    ['an unknown field', [{ metric: 'p95', op: '<', value: 1, severity: 'high' }], ['thresholds', '0', 'severity']],
    ['51 thresholds', Array.from({ length: 51 }, () => ({ metric: 'p95', op: '<', value: 1 })), ['thresholds', '50']],
  ];

  for (const [what, thresholds, mentions] of cases) {
    test(what, async () => {
      const created = await create({ thresholds });
      expect(created.response.status).toBe(400);
      expect(created.body.error).toBe('bad_request');
      for (const word of mentions) expect(created.body.message).toContain(word);

      const { body: test } = await create({ thresholds: [{ metric: 'p95', op: '<', value: 100 }] });
      const patched = await patch(test.id as string, { thresholds });
      expect(patched.response.status).toBe(400);
      for (const word of mentions) expect(patched.body.message).toContain(word);
      expect((await listed(test.id as string))!.thresholds).toEqual([{ metric: 'p95', op: '<', value: 100 }]);
    });
  }

  test('a value too large to be finite (1e999 in the JSON) is refused', async () => {
    const response = await ts.request('/api/v1/tests', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json' },
      body: `{"name":"huge","tool":"custom","script":"echo","thresholds":[{"metric":"p95","op":"<","value":1e999}]}`,
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe('bad_request');
    expect(body.message).toContain('value');
  });
});
