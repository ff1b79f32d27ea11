/** Schemas of a comparison of two runs (GET /tasks/{id}/compare) and of a test's trend (GET /tests/{id}/trend). */
import { t } from 'elysia';
import { Integer, Timestamp } from './common.ts';

const Verdict = t.Nullable(t.Union([t.Literal('passed'), t.Literal('failed')], { description: "the run's thresholds: passed, failed, or null (none, or the run did not finish)" }));

const figures = {
  p50: t.Number({ description: 'milliseconds, from the merged histogram of every machine' }),
  p95: t.Number({ description: 'milliseconds' }),
  p99: t.Number({ description: 'milliseconds' }),
  error_rate: t.Number({ description: 'errors / requests, fraction 0..1' }),
  requests_per_sec: t.Number({ description: 'requests per second over the measured window' }),
  total_requests: Integer({ description: 'requests of every machine' }),
};

export const ComparedRun = t.Object(
  {
    id: t.String({ description: 'the task UUID' }),
    public_id: t.String(),
    ...figures,
    verdict: Verdict,
  },
  { title: 'ComparedRun', description: "a run's figures as GET /tasks/{id} shows them (0 until measured)" },
);

const change = (figure: string) =>
  t.Nullable(t.Number({ description: `relative change of ${figure}: (current - base) / base; 0.12 is 12 % higher, -0.5 half; null when the base is 0` }));

export const FigureChanges = t.Object(
  { p50: change('p50'), p95: change('p95'), p99: change('p99'), error_rate: change('error_rate'), requests_per_sec: change('requests_per_sec') },
  { title: 'FigureChanges' },
);

/** The comparison, with the per-endpoint figures of GET /tasks/{id}/endpoints (`endpoint`, passed in to reuse its schema). */
export const comparisonSchema = <E extends ReturnType<typeof t.Object>>(endpoint: E) =>
  t.Object(
    {
      base: ComparedRun,
      current: ComparedRun,
      changes: FigureChanges,
      endpoints: t.Array(
        t.Object(
          {
            name: t.String({ description: 'the endpoint name, matched between the runs' }),
            base: t.Nullable(endpoint, { description: "the base run's figures for the name; null when it has none" }),
            current: t.Nullable(endpoint, { description: "the current run's figures for the name; null when it has none" }),
            changes: t.Nullable(FigureChanges, { description: 'null unless both runs have the name' }),
          },
          { title: 'EndpointComparison' },
        ),
        {
          description:
            "every endpoint name of either run: the current run's first (most requests first), then those only the base has; `(other)` last",
        },
      ),
    },
    { title: 'RunComparison' },
  );

export const TrendPoint = t.Object(
  {
    id: t.String({ description: 'the task UUID' }),
    public_id: t.String(),
    finished_at: Timestamp,
    status: t.Union([t.Literal('completed'), t.Literal('failed')]),
    verdict: Verdict,
    ...figures,
  },
  { title: 'TrendPoint' },
);
