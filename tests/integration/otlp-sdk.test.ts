/**
 * The official OpenTelemetry JS SDK exports to the receiver during a real run: a `custom` run on the in-process agent
 * is going while a MeterProvider (the system under test's side) exports through @opentelemetry/exporter-metrics-otlp-proto
 * (protobuf; no task id, so attributed by time) and -otlp-http (JSON; naming the run by loadplane.task_id). Both
 * exports succeed (the SDK's forceFlush rejects on a failed export), and the points show in GET /tasks/{id}/otel.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { OTLPMetricExporter as HttpJsonExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtobufExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationType, MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { waitFor } from '../helpers/process-probes.ts';
import { createRunGate, type RunGate } from '../helpers/run-gate.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';

let fixture: ServiceWithAgent;
/** The run lasts until the exports are done. */
let exported: RunGate;

type Series = { name: string; unit: string; type: string; labels: Record<string, string>; points: [number, number][] };

async function taskStatus(id: string) {
  const response = await fixture.ts.request(`/api/v1/tasks/${id}`, { token: fixture.token });
  return ((await response.json()) as { status: string }).status;
}

async function reached(id: string, statuses: string[]) {
  let status = '';
  await waitFor(async () => statuses.includes((status = await taskStatus(id))), 60_000, `task ${id} to reach ${statuses.join('/')}`);
  return status;
}

/**
 * A MeterProvider of the system under test, exporting with `exporter` on forceFlush only (its period is an hour): the
 * points' times are those of the flush, inside the run. The export timeout is wide: a loaded machine is slow, not failing.
 */
function sdk(exporter: PushMetricExporter, resource: Record<string, string>) {
  const provider = new MeterProvider({
    resource: resourceFromAttributes(resource),
    views: [{ instrumentName: 'checkout.db.duration', aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM } }],
    readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000, exportTimeoutMillis: 30_000 })],
  });
  const meter = provider.getMeter('checkout-service', '1.0.0');
  return { provider, meter };
}

beforeAll(async () => {
  exported = await createRunGate();
  fixture = await startServiceWithAgent('otel-sdk');
}, 60_000);
afterAll(async () => {
  await fixture?.stop();
  await exported?.remove();
});

describe('the OpenTelemetry JS SDK exporting during a run', () => {
  test('protobuf (by time) and JSON (by loadplane.task_id) exports show up in GET /tasks/{id}/otel', async () => {
    const { ts, token } = fixture;
    // The run goes on until the exports are done (however long they take), so the protobuf points, placed by their
    // time, fall inside it; then it ends by itself and completes.
    const script = `#!/bin/sh\necho started\n${exported.wait}\necho finished\n`;
    const created = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'otel-run', tool: 'custom', script } });
    const { id: testId } = (await created.json()) as { id: string };
    const started = await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId } });
    expect(started.status).toBe(202);
    const task = (await started.json()) as { id: string; public_id: string };
    expect(await reached(task.id, ['running', 'completed', 'failed'])).toBe('running');

    const endpoint = `${ts.url}/api/v1/otlp/v1/metrics`;
    const headers = { Authorization: `Bearer ${token}` };
    const proto = sdk(new ProtobufExporter({ url: endpoint, headers }), { 'service.name': 'checkout-proto' });
    const json = sdk(new HttpJsonExporter({ url: endpoint, headers }), { 'service.name': 'checkout-json', 'loadplane.task_id': task.public_id });

    for (const { meter } of [proto, json]) {
      const requests = meter.createCounter('checkout.requests', { unit: '{request}' });
      const latency = meter.createHistogram('checkout.latency', { unit: 'ms' });
      const db = meter.createHistogram('checkout.db.duration', { unit: 'ms' });
      const inflight = meter.createGauge('checkout.inflight');
      for (let i = 1; i <= 10; i++) {
        requests.add(1, { route: '/pay' });
        latency.record(i * 10, { route: '/pay' });
        db.record(i);
      }
      inflight.record(7);
    }
    try {
      // forceFlush exports now and rejects when the export failed.
      await proto.provider.forceFlush();
      await json.provider.forceFlush();
      await proto.provider.shutdown();
      await json.provider.shutdown();
    } finally {
      await exported.open();
    }
    expect(await reached(task.id, ['completed', 'failed'])).toBe('completed');

    const response = await ts.request(`/api/v1/tasks/${task.id}/otel`, { token });
    expect(response.status).toBe(200);
    const { metrics } = (await response.json()) as { metrics: Series[] };
    for (const service of ['checkout-proto', 'checkout-json']) {
      const of = (name: string) => metrics.filter((m) => m.name === name && m.labels['service.name'] === service);
      const last = (name: string) => of(name)[0]!.points.at(-1)![1];
      expect(of('checkout.requests')[0]).toMatchObject({ unit: '{request}', type: 'sum', labels: { 'service.name': service, route: '/pay' } });
      expect(last('checkout.requests')).toBe(10);
      expect(of('checkout.latency.count')[0]).toMatchObject({ type: 'histogram', unit: 'ms' });
      expect(last('checkout.latency.count')).toBe(10);
      expect(last('checkout.latency.sum')).toBe(550);
      expect(last('checkout.latency.min')).toBe(10);
      expect(last('checkout.latency.max')).toBe(100);
      expect(of('checkout.db.duration.count')[0]!.type).toBe('exponential_histogram');
      expect(last('checkout.db.duration.count')).toBe(10);
      expect(last('checkout.db.duration.sum')).toBe(55);
      expect(of('checkout.inflight')[0]!.type).toBe('gauge');
      expect(last('checkout.inflight')).toBe(7);
      // Points carry the exporter's collection times, within the run.
      for (const series of metrics) expect(series.points.length).toBeGreaterThan(0);
    }
  }, 180_000);
});
