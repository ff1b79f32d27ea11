/**
 * POST /otlp/v1/metrics: the OTLP/HTTP metrics receiver (protobuf or JSON, optionally gzipped), authenticated with an
 * API token or JWT. Points go to the run named by `loadplane.task_id` or to the one run active at their time; what
 * cannot be placed is reported in OTLP's partial_success, in the request's own encoding.
 */
import { Elysia } from 'elysia';
import { decodeMetricsJson, metricsResponseJson } from '../../domain/otlp/otlp-json.ts';
import { maxDataPointsPerRequest } from '../../domain/otlp/otlp-model.ts';
import { decodeMetricsRequest, encodeMetricsResponse } from '../../domain/otlp/otlp-protobuf.ts';
import { flattenExport, resourceLabelKeys, taskAttribute } from '../../domain/otlp/otel-samples.ts';
import { DomainError } from '../../kernel/errors.ts';
import type { OtelIngest } from '../../services/otel/otel-ingest.ts';
import { jsonNestsDeeperThan } from '../json-nesting.ts';
import { otlpEncodingOf, readOtlpBody } from '../otlp-body.ts';
import { tooDeep } from '../read-body.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity } from '../schemas/common.ts';

/** The receiver's path: an OTLP exporter's endpoint is `{base_url}/otlp` (it appends /v1/metrics itself). */
export const otlpMetricsPath = '/api/v1/otlp/v1/metrics';

const partialSuccess = {
  type: 'object' as const,
  title: 'ExportMetricsServiceResponse',
  description: 'empty on full success; partialSuccess names how many data points were refused and why',
  properties: {
    partialSuccess: {
      type: 'object' as const,
      properties: {
        rejectedDataPoints: { type: 'string' as const, pattern: '^[0-9]+$', description: 'int64 as a decimal string (OTLP JSON mapping)' },
        errorMessage: { type: 'string' as const },
      },
    },
  },
};

const otlpBody = (description: string) => ({ type: 'string' as const, format: 'binary', description });

export const otlpRoutes = (deps: RouteDeps & { maxBodyBytes: number; otelIngest: OtelIngest }) =>
  new Elysia({ normalize: false, prefix: '/otlp/v1', detail: { tags: ['OpenTelemetry'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .post(
      '/metrics',
      async ({ caller, request }) => {
        const encoding = otlpEncodingOf(request);
        const bytes = await readOtlpBody(request, deps.maxBodyBytes, deps.maxBodyBytes * 8);
        let decoded;
        if (encoding === 'json') {
          let body: unknown;
          const text = new TextDecoder().decode(bytes);
          if (jsonNestsDeeperThan(text)) throw tooDeep();
          try {
            body = bytes.byteLength === 0 ? {} : JSON.parse(text);
          } catch (error) {
            throw new DomainError('bad_request', `malformed JSON body: ${(error as Error).message}`);
          }
          decoded = decodeMetricsJson(body, maxDataPointsPerRequest);
        } else {
          try {
            decoded = decodeMetricsRequest(bytes, maxDataPointsPerRequest);
          } catch (error) {
            if (error instanceof DomainError) throw error;
            throw new DomainError('bad_request', `malformed protobuf body: ${(error as Error).message}`);
          }
        }
        const { points, refused } = flattenExport(decoded, Date.now() * 1000);
        const result = await deps.otelIngest.ingest(caller.workspace.workspaceId, points, refused);
        if (encoding === 'json') {
          return new Response(JSON.stringify(metricsResponseJson(result.rejected, result.message)), { headers: { 'content-type': 'application/json' } });
        }
        return new Response(encodeMetricsResponse(result.rejected, result.message) as BodyInit, { headers: { 'content-type': 'application/x-protobuf' } });
      },
      {
        detail: {
          summary: 'Receive OpenTelemetry metrics (OTLP/HTTP)',
          description: [
            'An OTLP/HTTP metrics endpoint: point an exporter at `{base_url}/otlp` (OTEL_EXPORTER_OTLP_METRICS_ENDPOINT = `{base_url}/otlp/v1/metrics`)',
            'with the header `Authorization: Bearer psk_...` (a token with metrics:read or runs:write; the role needs run_tests).',
            'Bodies are ExportMetricsServiceRequest as protobuf (application/x-protobuf) or OTLP JSON (application/json), optionally gzipped',
            `(Content-Encoding: gzip); at most MAX_BODY_BYTES on the wire and ${maxDataPointsPerRequest} data points (413 beyond).`,
            `A point belongs to the run named by the attribute \`${taskAttribute}\` (task UUID or public id; on the resource or the point),`,
            "else to the one run of the workspace active at the point's time (from its start until 10 s after its end).",
            'Points that cannot be placed (no such task in this workspace, no or several active runs, a non-finite value, over 32 attributes)',
            'are refused and counted in partialSuccess, as OTLP prescribes; the rest are stored. The answer uses the request\'s encoding.',
            `Gauges and sums store their value; histograms and exponential histograms store \`<name>.count\`, \`.sum\`, \`.min\`, \`.max\`; summaries \`.count\` and \`.sum\`.`,
            `Labels are the point's attributes plus the resource's ${resourceLabelKeys.join(', ')}. A point sent again (same series and time) is stored once.`,
          ].join(' '),
          requestBody: {
            required: true,
            content: {
              'application/x-protobuf': { schema: otlpBody('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest') },
              'application/json': {
                schema: {
                  type: 'object' as const,
                  description: 'ExportMetricsServiceRequest in the OTLP JSON encoding',
                  // proto3's JSON mapping reads null as the field's default: no resource metrics, nothing to store. (A 3.1
                  // type list, which the 3.0-shaped route types do not know.)
                  properties: { resourceMetrics: { type: ['array', 'null'], items: { type: 'object' } } as unknown as { type: 'array'; items: { type: 'object' } } },
                },
              },
            },
          },
          responses: {
            200: {
              description: 'stored (all, or all but the data points partialSuccess counts)',
              content: {
                'application/x-protobuf': { schema: otlpBody('ExportMetricsServiceResponse (for a protobuf request)') },
                'application/json': { schema: partialSuccess },
              },
            },
          },
        },
      },
    );
