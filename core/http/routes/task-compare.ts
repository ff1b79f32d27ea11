/** GET /tasks/:id/compare?with=: a run next to another run of the workspace, or next to its test's baseline. */
import { Elysia, t } from 'elysia';
import { badRequest, DomainError } from '../../kernel/errors.ts';
import { baselineOf, compareRuns } from '../../services/metrics/run-comparison.ts';
import { sqlOf } from '../../services/sql.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { comparisonSchema } from '../schemas/run-comparison.ts';
import { bearerSecurity, errorResponses, IdParams } from '../schemas/common.ts';
import { Endpoint } from './task-endpoints.ts';

const CompareQuery = t.Object(
  {
    with: t.String({ description: 'the run to compare with (the base): its UUID or public id, or `baseline` for the baseline of the run\'s test' }),
  },
  { additionalProperties: true },
);

export const taskCompareRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/tasks', detail: { tags: ['Tasks'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get(
      '/:id/compare',
      async ({ caller, params, query }) => {
        const workspaceId = caller.workspace.workspaceId;
        // The id first: another workspace's task is a 404 whatever `with` says.
        const current = await deps.tasks.find(caller, params.id);
        const other = (query.with ?? '').trim();
        if (other === '') throw badRequest('with is required: the id or public id of the run to compare with, or baseline', { field: 'with' });
        let baseRef = other;
        if (other.toLowerCase() === 'baseline') {
          const baseline = await baselineOf(sqlOf(deps.db), workspaceId, current.testId);
          if (!baseline) {
            throw new DomainError('not_found', `the test of run ${current.publicId} has no baseline: set one with PUT /api/v1/tests/${current.testId}/baseline`);
          }
          baseRef = baseline;
        }
        const base = await deps.tasks.find(caller, baseRef);
        return compareRuns(sqlOf(deps.db), workspaceId, base, current);
      },
      {
        params: IdParams,
        query: CompareQuery,
        response: { 200: comparisonSchema(Endpoint), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: {
          summary: 'Compare a run with another run or with its test\'s baseline',
          description:
            'The run `{id}` (`current`) next to the run named by `with` (`base`): both runs\' figures and verdicts, the relative change ' +
            'of p50, p95, p99, error_rate and requests_per_sec ((current - base) / base: 0.12 is 12 % higher; null when the base figure is 0), ' +
            'and the same per endpoint, matched by name (a name only one run has shows null figures on the other side and null changes). ' +
            '`with=baseline` compares with the baseline of the run\'s test (PUT /tests/{id}/baseline): 404 when it has none. A run of ' +
            'another workspace is a 404 like one that does not exist; 400 without `with`. The figures are those of GET /tasks/{id}: final ' +
            'once the run ended, so far while it runs.',
        },
      },
    );
