/**
 * GET /tasks/:id/endpoints and GET /tasks/:id/errors: a run's results per endpoint (merged across its machines from
 * histograms) and its failures grouped by endpoint, kind and code.
 */
import { Elysia, t } from 'elysia';
import { maxEndpointNames, otherEndpoint } from '../../domain/metrics/metric-recorder.ts';
import { maxErrorGroupsListed, maxTaskErrorGroups, readRunEndpoints, readRunErrors } from '../../services/metrics/run-endpoints.ts';
import { sqlOf } from '../../services/sql.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, errorResponses, IdParams, Integer } from '../schemas/common.ts';

export const Endpoint = t.Object(
  {
    name: t.String({
      description: `the endpoint's name: the http tool's step name (default \`METHOD path\`), k6's \`name\` tag or URL, Locust's, JMeter's, Gatling's or Artillery's request name, a custom script's sample name; \`${otherEndpoint}\` holds every name past the first ${maxEndpointNames}`,
    }),
    requests: Integer({ description: 'requests of every machine' }),
    errors: Integer({ description: 'failed requests of every machine' }),
    error_rate: t.Number({ description: 'errors / requests, fraction 0..1' }),
    requests_per_sec: t.Number({ description: "the endpoint's requests over the run's measured window (first sample of any machine to the last)" }),
    p50: t.Number({ description: 'milliseconds, from the merged histogram of every machine (never averaged)' }),
    p95: t.Number({ description: 'milliseconds' }),
    p99: t.Number({ description: 'milliseconds' }),
    max: t.Number({ description: 'milliseconds, the slowest request' }),
    timeline: t.Optional(
      t.Array(
        t.Object(
          {
            t: Integer({ description: 'unix seconds: the start of the minute' }),
            requests_per_sec: t.Number({ description: "the minute's requests of every machine over the seconds of it the run measured" }),
            error_rate: t.Number({ description: 'errors / requests in the minute, fraction 0..1; 0 without requests' }),
            p95: t.Number({ description: 'milliseconds, from the merged histogram of every machine in the minute; 0 without requests' }),
          },
          { title: 'TaskEndpointMinute' },
        ),
        { description: 'only with `timeline=true`: one entry per minute from the run\'s first minute to its last, oldest first (zeros where the endpoint had no samples)' },
      ),
    ),
  },
  { title: 'TaskEndpoint' },
);

const EndpointsQuery = t.Object(
  {
    timeline: t.Optional(
      t.Union([t.Literal('true'), t.Literal('false')], {
        description: 'true: each row also carries its minutes (`timeline`), for sparklines and charts per endpoint',
      }),
    ),
  },
  { additionalProperties: true },
);

const ErrorGroup = t.Object(
  {
    endpoint: t.String({ description: 'the endpoint name (empty when the tool did not name the request)' }),
    kind: t.Union([t.Literal('status'), t.Literal('network'), t.Literal('check'), t.Literal('script')], {
      description: 'status: an answer with a failing status; network: no answer (refused, reset, timeout); check: a failed check or expectation; script: an error of the script',
    }),
    code: t.String({ description: 'the status code, the network error code, the check name ...' }),
    message: t.String({ description: 'one message of the group, as a sample (cut at 300 characters)' }),
    count: Integer({ description: 'failures of this endpoint, kind and code across machines' }),
  },
  { title: 'TaskErrorGroup' },
);

const responses = <T extends ReturnType<typeof t.Array>>(ok: T) => ({
  200: ok,
  401: errorResponses[401],
  403: errorResponses[403],
  404: errorResponses[404],
});

export const taskEndpointRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/tasks', detail: { tags: ['Tasks'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get(
      '/:id/endpoints',
      async ({ caller, params, query }) => {
        const task = await deps.tasks.find(caller, params.id);
        return readRunEndpoints(sqlOf(deps.db), caller.workspace.workspaceId, task.id, { timeline: query.timeline === 'true' });
      },
      {
        params: IdParams,
        query: EndpointsQuery,
        response: { ...responses(t.Array(Endpoint)), 400: errorResponses[400] },
        detail: {
          summary: "A run's results per endpoint, merged across its machines",
          description:
            'One row per endpoint name the load tool reported, live while the run goes: requests and errors summed across machines, ' +
            'percentiles read from the merged latency histograms (never averaged). Sorted by requests, most first; at most ' +
            `${maxEndpointNames} names a run, every later one counted in a last row named \`${otherEndpoint}\` (totals stay intact). ` +
            'Empty for a run whose tool names no requests. With `timeline=true` each row also carries its figures per minute. ' +
            "The id is the task's UUID or public id.",
        },
      },
    )
    .get(
      '/:id/errors',
      async ({ caller, params }) => {
        const task = await deps.tasks.find(caller, params.id);
        return readRunErrors(sqlOf(deps.db), caller.workspace.workspaceId, task.id);
      },
      {
        params: IdParams,
        response: responses(t.Array(ErrorGroup)),
        detail: {
          summary: "A run's failures grouped by endpoint, kind and code",
          description:
            'Failures of every machine grouped by (endpoint, kind, code), each with its count and one sample message; sorted by count, most first. ' +
            `A run keeps ${maxTaskErrorGroups} groups; later ones are counted in one group per kind with endpoint and code \`${otherEndpoint}\`. ` +
            `At most ${maxErrorGroupsListed} groups. The id is the task's UUID or public id.`,
        },
      },
    );
