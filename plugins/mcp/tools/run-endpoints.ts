/** get_run_endpoints: a run's results per endpoint (a step, a request name, a URL), merged across its machines. */
import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool-registry.ts';
import { RunId } from './runs.ts';

export const EndpointFigures = Type.Object(
  {
    name: Type.String({ description: "the endpoint: an http step's name, a request name or URL of the tool; (other) holds every name past the first 200" }),
    requests: Type.Integer(),
    errors: Type.Integer({ description: 'failed requests' }),
    error_rate: Type.Number({ description: 'errors / requests, a fraction 0..1' }),
    requests_per_sec: Type.Number({ description: "the endpoint's requests over the run's measured window" }),
    p50: Type.Number({ description: 'milliseconds, from the merged histogram of every machine' }),
    p95: Type.Number({ description: 'milliseconds' }),
    p99: Type.Number({ description: 'milliseconds' }),
    max: Type.Number({ description: 'milliseconds, the slowest request' }),
  },
  { description: "one endpoint's figures in a run" },
);

export interface EndpointAnswer {
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

export const getRunEndpoints = defineTool({
  name: 'get_run_endpoints',
  title: 'Results per endpoint',
  description:
    "A run's figures per endpoint (an http step's name, k6's name tag or URL, Locust's, JMeter's, Gatling's or Artillery's request name): " +
    'requests, errors, error_rate (a fraction 0..1), requests_per_sec, and p50/p95/p99/max latency in milliseconds, merged across machines ' +
    'from histograms (never averaged). Sorted by requests, most first; at most 200 names, the rest in one row named (other). Live while the ' +
    'run goes. Empty for a tool that names no requests. Use it to find which endpoint is slow or failing; get_run_errors says how it failed.',
  input: Type.Object({ run_id: RunId }, { additionalProperties: false }),
  output: Type.Object({ run_id: Type.String({ description: 'the run id as given' }), endpoints: Type.Array(EndpointFigures) }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: async ({ run_id }, { rest }) => ({ run_id, endpoints: await rest.get<EndpointAnswer[]>(`/tasks/${encodeURIComponent(run_id)}/endpoints`) }),
});
