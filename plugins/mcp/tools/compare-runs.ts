/** compare_runs: a run next to another run or its test's baseline, with relative changes, overall and per endpoint. */
import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '../paging.ts';
import { defineTool } from '../tool-registry.ts';
import { EndpointFigures } from './run-endpoints.ts';
import { RunId } from './runs.ts';

const RunFigures = Type.Object({
  id: Type.String({ description: 'the run UUID' }),
  public_id: Type.String(),
  p50: Type.Number({ description: 'milliseconds' }),
  p95: Type.Number({ description: 'milliseconds' }),
  p99: Type.Number({ description: 'milliseconds' }),
  error_rate: Type.Number({ description: 'a fraction 0..1' }),
  requests_per_sec: Type.Number(),
  total_requests: Type.Integer(),
  verdict: Nullable(Type.Union([Type.Literal('passed'), Type.Literal('failed')])),
});

const change = Nullable(Type.Number({ description: '(current - base) / base: 0.12 is 12 % higher, -0.5 half; null when the base is 0' }));
const Changes = Type.Object({ p50: change, p95: change, p99: change, error_rate: change, requests_per_sec: change });

const Comparison = Type.Object({
  base: RunFigures,
  current: RunFigures,
  changes: Changes,
  endpoints: Type.Array(
    Type.Object({
      name: Type.String(),
      base: Nullable(EndpointFigures),
      current: Nullable(EndpointFigures),
      changes: Nullable(Changes),
    }),
    { description: 'every endpoint of either run, matched by name; a name only one run has: null figures on the other side and null changes' },
  ),
});

export const compareRuns = defineTool({
  name: 'compare_runs',
  title: 'Compare two runs',
  description:
    'A run (current) next to another run (base): with a run id or public id, or "baseline" for the baseline of the run\'s test (set_baseline). ' +
    'Returns both runs\' p50/p95/p99 (milliseconds), error_rate (a fraction 0..1), requests_per_sec, total_requests and verdict, the relative ' +
    'change of each figure ((current - base) / base: 0.12 is 12 % higher, so for latency and error_rate positive is worse, for requests_per_sec ' +
    'better; null when the base figure is 0), and the same per endpoint, matched by name. A not_found error with with="baseline" means the test ' +
    'has no baseline.',
  input: Type.Object(
    {
      run_id: RunId,
      with: Type.String({ minLength: 1, description: 'the run to compare with (its UUID or public id), or "baseline"' }),
    },
    { additionalProperties: false },
  ),
  output: Comparison,
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ run_id, with: other }, { rest }) => rest.get<Static<typeof Comparison>>(`/tasks/${encodeURIComponent(run_id)}/compare`, { with: other }),
});
