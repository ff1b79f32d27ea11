/** GET /tasks/:id/timeseries: a run's throughput, error rate, latency percentiles and VUs over time, merged across its machines. */
import { Elysia, t } from 'elysia';
import { maxPoints, maxStep, minStep, parseStep, targetPoints } from '../../domain/metrics/timeseries-step.ts';
import { readRunTimeseries } from '../../services/metrics/run-timeseries.ts';
import { sqlOf } from '../../services/sql.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, errorResponses, IdParams, Integer } from '../schemas/common.ts';

const TimeseriesQuery = t.Object(
  {
    step: t.Optional(
      t.String({
        description: `bucket length in whole seconds, ${minStep}..${maxStep}; empty or absent: chosen so the run has at most about ${targetPoints} points`,
      }),
    ),
  },
  { additionalProperties: true },
);

const Point = t.Object(
  {
    t: Integer({ description: 'start of the bucket, unix seconds (the bucket covers [t, t + step))' }),
    requests_per_sec: t.Number({ description: 'requests of every machine in the bucket, divided by the step' }),
    error_rate: t.Number({ description: 'errors / requests in the bucket, fraction 0..1; 0 when it has no requests' }),
    p50: t.Number({ description: 'milliseconds, from the merged histogram of every machine in the bucket; 0 without requests' }),
    p95: t.Number({ description: 'milliseconds' }),
    p99: t.Number({ description: 'milliseconds' }),
    vus: Integer({ description: 'virtual users summed across machines; 0 while agents do not report them with their intervals' }),
  },
  { title: 'TimeseriesPoint' },
);

const Timeseries = t.Object(
  {
    step: Integer({ description: 'seconds: the step used, larger than the one asked when that would give too many points' }),
    points: t.Array(Point, { description: 'oldest first, one per bucket from the first interval to the last (empty buckets included); empty before any interval' }),
  },
  { title: 'TaskTimeseries' },
);

export const taskTimeseriesRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/tasks', detail: { tags: ['Tasks'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get(
      '/:id/timeseries',
      async ({ caller, params, query }) => {
        // The id first: another workspace's task is a 404 whatever the step says.
        const task = await deps.tasks.find(caller, params.id);
        return readRunTimeseries(sqlOf(deps.db), caller.workspace.workspaceId, task.id, parseStep(query.step));
      },
      {
        params: IdParams,
        query: TimeseriesQuery,
        response: { 200: Timeseries, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: {
          summary: "A run's figures over time, merged across its machines",
          description:
            `The whole run in buckets of \`step\` seconds, live while it runs (each read shows the intervals the agents sent so far). ` +
            '`t` is the bucket start in unix seconds; an interval counts in the bucket that holds its middle. Requests and errors are summed ' +
            'across machines; percentiles come from the merged latency histograms of the bucket, never from averaged percentiles. ' +
            `At most ${maxPoints} points: a step too small for the run's length is raised, and \`step\` in the answer is the one used. ` +
            "The id is the task's UUID or public id.",
        },
      },
    );
