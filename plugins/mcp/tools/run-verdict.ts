/** get_run_verdict: whether a run passed its test's thresholds, each threshold with the figure it was checked on. */
import { Type } from '@sinclair/typebox';
import { Nullable } from '../paging.ts';
import { defineTool } from '../tool-registry.ts';
import { RunId, terminalStatuses } from './runs.ts';

interface ThresholdResultAnswer {
  metric: 'p50' | 'p95' | 'p99' | 'error_rate' | 'requests_per_sec';
  endpoint?: string;
  op: '<' | '<=' | '>' | '>=';
  value: number;
  abort?: boolean;
  actual: number | null;
  ok: boolean;
}

interface VerdictAnswer {
  id: string;
  public_id: string;
  test_id: string;
  status: string;
  verdict: 'passed' | 'failed' | null;
  threshold_results: ThresholdResultAnswer[];
  error: string | null;
}

const ThresholdResult = Type.Object({
  metric: Type.Union([Type.Literal('p50'), Type.Literal('p95'), Type.Literal('p99'), Type.Literal('error_rate'), Type.Literal('requests_per_sec')], {
    description: 'p50, p95, p99 (milliseconds), error_rate (a fraction 0..1) or requests_per_sec',
  }),
  endpoint: Type.Optional(Type.String({ description: "checked on this endpoint's figures; absent: the whole run's" })),
  op: Type.Union([Type.Literal('<'), Type.Literal('<='), Type.Literal('>'), Type.Literal('>=')]),
  value: Type.Number(),
  abort: Type.Optional(Type.Boolean({ description: 'stops the run at once when it fails while the run goes' })),
  actual: Nullable(Type.Number({ description: 'the measured figure; null when there is none (which fails the threshold)' })),
  ok: Type.Boolean({ description: 'whether the figure met the threshold' }),
});

export const getRunVerdict = defineTool({
  name: 'get_run_verdict',
  title: 'Verdict of a run',
  description:
    "Whether a run passed its test's thresholds: verdict passed or failed (null when the test has no thresholds, or the run did not finish: " +
    'pending, running, cancelled, never started), each threshold with the figure it was checked on (actual: milliseconds, a fraction 0..1 ' +
    'for error_rate, or requests per second; null when not measured, which fails) and ok, and the error (failing thresholds are named ' +
    'there with their figures, after the machine\'s own reason). finished says whether the run has ended; wait_for_run waits for that.',
  input: Type.Object({ run_id: RunId }, { additionalProperties: false }),
  output: Type.Object({
    run_id: Type.String({ description: 'the run UUID' }),
    public_id: Type.String(),
    test_id: Type.String(),
    status: Type.String({ description: 'pending, running, completed, failed or cancelled' }),
    finished: Type.Boolean({ description: 'the run has ended: its verdict is final' }),
    verdict: Nullable(Type.Union([Type.Literal('passed'), Type.Literal('failed')])),
    threshold_results: Type.Array(ThresholdResult),
    error: Nullable(Type.String({ description: 'why the run failed, the failing thresholds included' })),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run({ run_id }, { rest }) {
    const run = await rest.get<VerdictAnswer>(`/tasks/${encodeURIComponent(run_id)}`);
    return {
      run_id: run.id,
      public_id: run.public_id,
      test_id: run.test_id,
      status: run.status,
      finished: terminalStatuses.includes(run.status),
      verdict: run.verdict ?? null,
      threshold_results: run.threshold_results ?? [],
      error: run.error ?? null,
    };
  },
});
