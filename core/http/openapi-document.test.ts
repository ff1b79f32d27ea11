/** Cheap structural checks of /swagger-ui/openapi.json; CI also runs openapi-spec-validator and schemathesis on it. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestService, type TestService } from '../../tests/helpers/test-service.ts';

type Json = Record<string, unknown>;
interface Operation {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean; schema: Json }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, Json>;
  security?: unknown[];
}

let ts: TestService;
let doc: { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Json; responses: Json } };
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));

/** Every value reachable in the document, with its JSON pointer. */
function* walk(value: unknown, pointer = ''): Generator<[string, unknown]> {
  yield [pointer, value];
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) yield* walk(child, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
}

beforeAll(async () => {
  ts = await startTestService();
  const response = await ts.request('/swagger-ui/openapi.json');
  expect(response.headers.get('content-type')).toContain('application/json');
  doc = (await response.json()) as typeof doc;
});
afterAll(() => ts.stop());

describe('the OpenAPI document', () => {
  test('is OpenAPI 3.1 with unique operation ids and resolvable references', () => {
    expect(doc.openapi).toBe('3.1.0');
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [pointer, value] of walk(doc)) {
      if (!pointer.endsWith('/$ref')) continue;
      const target = (value as string).replace(/^#\//, '').split('/').reduce<unknown>((node, key) => (node as Json | undefined)?.[key], doc);
      expect(target, `${pointer} -> ${value}`).toBeDefined();
    }
  });

  test('carries none of what validators refuse: no $id, no 3.0 nullable, no body on 204, no string typed as an integer', () => {
    for (const [pointer, value] of walk(doc)) {
      expect(pointer, pointer).not.toMatch(/\/(\$id|nullable|x-loadplane-document)$/);
      if (typeof value === 'object' && value !== null && (value as Json).type === 'string') {
        expect(['integer', 'numeric'], pointer).not.toContain((value as Json).format);
      }
    }
    for (const { path, method, operation } of operations()) {
      if (operation.responses['204']) expect(operation.responses['204'].content, `${method} ${path}`).toBeUndefined();
      for (const [status, response] of Object.entries(operation.responses)) {
        // Errors share the {error, message} responses; only the Prometheus API answers its errors in its own envelope.
        if (Number(status) < 400) continue;
        if (path.startsWith('/api/v1/prometheus/') && status === '400') expect(JSON.stringify((response as { content?: unknown }).content), `${method} ${path}`).toContain('PrometheusAnswer');
        else expect(response.$ref, `${method} ${path} ${status}`).toMatch(/^#\/components\/responses\//);
      }
    }
  });

  test('documents every route with the statuses it can answer and its required body', () => {
    const byKey = new Map(operations().map(({ path, method, operation }) => [`${method.toUpperCase()} ${path}`, operation]));
    for (const key of Object.keys(ts.service.routePolicies)) {
      const [method, route] = key.split(' ') as [string, string];
      const operation = byKey.get(`${method} ${route.replace(/:(\w+)/g, '{$1}')}`);
      expect(operation, key).toBeDefined();
      const statuses = Object.keys(operation!.responses);
      expect(statuses.some((status) => /^[12]/.test(status)), `${key} success`).toBe(true);
      for (const status of ['401', '403', '404', '413']) expect(statuses, `${key} ${status}`).toContain(status);
      if (method !== 'GET') for (const status of ['400', '415']) expect(statuses, `${key} ${status}`).toContain(status);
      expect(operation!.security, key).toEqual([{ bearerAuth: [] }]);
      if (operation!.requestBody) {
        // The Prometheus API takes its parameters as an optional form body, as Prometheus does; the OTLP receiver takes
        // OTLP's two encodings; every other body is JSON.
        const form = route.startsWith('/api/v1/prometheus/');
        expect(operation!.requestBody.required, key).toBe(!form);
        const types = form ? ['application/x-www-form-urlencoded'] : key === 'POST /api/v1/otlp/v1/metrics' ? ['application/x-protobuf', 'application/json'] : ['application/json'];
        expect(Object.keys(operation!.requestBody.content), key).toEqual(types);
      }
      for (const match of route.matchAll(/:(\w+)/g)) {
        expect(operation!.parameters?.find((p) => p.in === 'path' && p.name === match[1])?.required, `${key} {${match[1]}}`).toBe(true);
      }
    }
    expect(byKey.get('POST /api/v1/tasks')!.responses).toHaveProperty('429');
    // The AI tool-call budget: 200 with what is left, 429 once used up; the machine view carries region and capacity.
    expect(byKey.get('POST /api/v1/usage/ai-tool-calls')!.responses['200']).toEqual({ description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/AiToolCallDeducted' } } } });
    expect(byKey.get('POST /api/v1/usage/ai-tool-calls')!.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    expect(Object.keys((doc.components.schemas as Record<string, { properties: Json }>).Machine!.properties)).toEqual(expect.arrayContaining(['agent_version', 'region', 'benchmark_capacity']));
    expect(byKey.get('POST /api/v1/machines')!.responses).toHaveProperty('409');
    // A run's time series: its step parameter, its answer, and what `t` means (the UI charts it).
    const timeseries = byKey.get('GET /api/v1/tasks/{id}/timeseries')!;
    expect(timeseries.parameters!.find((p) => p.name === 'step')).toMatchObject({ in: 'query', required: false });
    expect(timeseries.responses['200']).toEqual({ description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/TaskTimeseries' } } } });
    const point = (doc.components.schemas as Record<string, { properties: Record<string, Json>; required: string[] }>).TimeseriesPoint!;
    expect(point.required.sort()).toEqual(['error_rate', 'p50', 'p95', 'p99', 'requests_per_sec', 't', 'vus']);
    expect(point.properties.t!.description).toContain('unix seconds');
    // A run's results per endpoint and its error groups: arrays of named schemas, with every field required.
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, Json>; required: string[] }>;
    for (const [path, item, fields] of [
      ['endpoints', 'TaskEndpoint', ['error_rate', 'errors', 'max', 'name', 'p50', 'p95', 'p99', 'requests', 'requests_per_sec']],
      ['errors', 'TaskErrorGroup', ['code', 'count', 'endpoint', 'kind', 'message']],
    ] as const) {
      const operation = byKey.get(`GET /api/v1/tasks/{id}/${path}`)!;
      expect(operation.responses['200'], path).toEqual({
        description: 'OK',
        content: { 'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/${item}` } } } },
      });
      expect(operation.responses, path).toHaveProperty('404');
      expect(schemas[item]!.required.sort(), path).toEqual([...fields]);
    }
    expect(byKey.get('GET /api/v1/agent')!.responses).toHaveProperty('426');
    expect(byKey.get('DELETE /api/v1/machines/{id}')!.responses['204']).toEqual({ description: 'done; no content' });
    // The health check is public.
    expect(byKey.get('GET /healthz')!.security).toEqual([]);
  });

  test('lists document their paging: limit (empty allowed), cursor, Link and X-Next-Cursor', () => {
    const lists = operations().filter(({ operation }) => operation.parameters?.some((p) => p.name === 'cursor'));
    expect(lists.map(({ path }) => path).sort()).toEqual(
      [
        '/api/v1/api-tokens',
        '/api/v1/audit-log',
        '/api/v1/auth/me/invitations',
        '/api/v1/configs',
        '/api/v1/dashboards',
        '/api/v1/env-vars',
        '/api/v1/git-repos',
        '/api/v1/machines',
        '/api/v1/mcp-servers',
        '/api/v1/members',
        '/api/v1/members/invitations',
        '/api/v1/schedules',
        '/api/v1/tasks',
        '/api/v1/tasks/{id}/otel',
        '/api/v1/tests',
        '/api/v1/webhooks',
        '/api/v1/webhooks/{id}/deliveries',
      ].sort(),
    );
    for (const { path, operation } of lists) {
      const limit = operation.parameters!.find((p) => p.name === 'limit')!;
      expect(limit.schema, path).toEqual({ anyOf: [{ type: 'integer', minimum: 1, maximum: 1000 }, { type: 'string', maxLength: 0 }] });
      expect(Object.keys((operation.responses['200'] as { headers: Json }).headers), path).toEqual(['Link', 'X-Next-Cursor']);
      expect(operation.responses, path).toHaveProperty('400');
    }
  });

  test('request schemas say what the service checks itself (patterns, enums), and the Error body is {error, message}', () => {
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, Json>; required?: string[] }>;
    const machine = schemas.MachineCreate!.properties;
    expect(machine.hostname!.pattern).toBeDefined();
    expect(machine.ip_address!.anyOf).toEqual([{ format: 'ipv4' }, { format: 'ipv6' }]);
    expect(machine.os!.enum).toContain('win32');
    expect(machine.cpu_cores!.type).toBe('integer');
    // The spec's six, then the built-in http tool (the ids of the registered load-tool plugins follow them).
    expect(schemas.TestCreate!.properties.tool!.enum).toEqual(['k6', 'jmeter', 'locust', 'artillery', 'gatling', 'custom', 'http']);
    expect(schemas.Error).toMatchObject({ type: 'object', required: ['error', 'message'] });
  });
});
