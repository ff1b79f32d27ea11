/** /tests: list, read, create, edit and delete the caller's workspace's test definitions; a test's baseline and trend. */
import { Elysia, t } from 'elysia';
import { defaultTrendRuns, maxTrendRuns, readTestTrend } from '../../services/metrics/run-comparison.ts';
import { sqlOf } from '../../services/sql.ts';
import { badRequest } from '../../kernel/errors.ts';
import { PageQuery, pagedList } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, documented, errorResponses, IdParams } from '../schemas/common.ts';
import { TrendPoint } from '../schemas/run-comparison.ts';
import { testSchemas, toTestView } from '../schemas/test-definition.ts';

const BaselineBody = t.Object(
  { task_id: t.String({ minLength: 1, description: 'a finished run (completed or failed) of this test: its UUID or public id' }) },
  { additionalProperties: false, title: 'BaselineSet' },
);

const TrendQuery = t.Object(
  {
    // A string at runtime so a bad value gets our own message; the document shows the integer it is.
    limit: t.Optional(
      t.String({
        description: `runs, 1..${maxTrendRuns} (default ${defaultTrendRuns}); empty means the default`,
        ...documented({ type: null, anyOf: [{ type: 'integer', minimum: 1, maximum: maxTrendRuns }, { type: 'string', maxLength: 0 }] }),
      }),
    ),
  },
  { additionalProperties: true },
);

function trendLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return defaultTrendRuns;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > maxTrendRuns) {
    throw badRequest(`limit must be a whole number from 1 to ${maxTrendRuns}`, { field: 'limit' });
  }
  return Number(raw);
}

export const testRoutes = (deps: RouteDeps) => {
  const { TestCreate, TestPatch, TestView } = testSchemas(deps.toolIds);
  return new Elysia({ normalize: false, prefix: '/tests', detail: { tags: ['Tests'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get(
      '',
      (context) => pagedList(context, (page) => deps.tests.list(context.caller, page), toTestView),
      {
        query: PageQuery,
        response: { 200: t.Array(TestView), 400: errorResponses[400], 401: errorResponses[401] },
        detail: { summary: "List the workspace's tests, newest first" },
      },
    )
    .get('/:id', async ({ caller, params }) => toTestView(await deps.tests.get(caller, params.id)), {
      params: IdParams,
      response: { 200: TestView, 401: errorResponses[401], 404: errorResponses[404] },
      detail: { summary: 'One test, with its script and thresholds' },
    })
    .post(
      '',
      async ({ caller, body, set }) => {
        const test = await deps.tests.create(caller, body);
        set.status = 201;
        return toTestView(test);
      },
      {
        body: TestCreate,
        response: { 201: TestView, 400: errorResponses[400], 401: errorResponses[401], 413: errorResponses[413] },
        detail: { summary: 'Create a test (status defaults to draft)' },
      },
    )
    .patch(
      '/:id',
      async ({ caller, params, body }) => toTestView(await deps.tests.update(caller, params.id, body)),
      {
        params: IdParams,
        body: TestPatch,
        response: { 200: TestView, 400: errorResponses[400], 401: errorResponses[401], 404: errorResponses[404] },
        detail: { summary: 'Change any of name, script, status' },
      },
    )
    .put(
      '/:id/baseline',
      async ({ caller, params, body }) => toTestView(await deps.tests.setBaseline(caller, params.id, body.task_id)),
      {
        params: IdParams,
        body: BaselineBody,
        response: { 200: TestView, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: {
          summary: "Set the test's baseline run",
          description:
            'Names a finished run of this test (completed or failed, having run; its UUID or public id) as the run that ' +
            '`GET /tasks/{id}/compare?with=baseline` compares against, replacing any earlier one. 404 for a run that is not in this ' +
            "workspace; 400 for a run of another test, or one that did not finish (pending, running, cancelled, never started). " +
            'Answers the test with `baseline_task_id` (the run\'s UUID).',
        },
      },
    )
    .delete(
      '/:id/baseline',
      async ({ caller, params, set }) => {
        await deps.tests.clearBaseline(caller, params.id);
        set.status = 204;
      },
      {
        params: IdParams,
        response: { 204: t.Void(), 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: { summary: "Remove the test's baseline (204 also when it had none)" },
      },
    )
    .get(
      '/:id/trend',
      async ({ caller, params, query }) => {
        // The test first: another workspace's test is a 404 whatever the limit says.
        const test = await deps.tests.get(caller, params.id);
        return readTestTrend(sqlOf(deps.db), caller.workspace.workspaceId, test.id, trendLimit(query.limit));
      },
      {
        params: IdParams,
        query: TrendQuery,
        response: { 200: t.Array(TrendPoint), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: {
          summary: "The test's last finished runs with their figures, oldest first",
          description:
            `The last \`limit\` runs of the test that finished (completed or failed, having run; cancelled runs and runs that never ` +
            `started are left out), by the time they finished, answered oldest first so they chart left to right: ` +
            `figures, status and verdict. Bounded by \`limit\` (default ${defaultTrendRuns}, at most ${maxTrendRuns}), not paged; older runs: ` +
            '`GET /tasks?test_id=`.',
        },
      },
    )
    .delete(
      '/:id',
      async ({ caller, params, set }) => {
        await deps.tests.remove(caller, params.id);
        set.status = 204;
      },
      {
        params: IdParams,
        response: { 204: t.Void(), 401: errorResponses[401], 404: errorResponses[404] },
        detail: { summary: 'Delete a test; its runs are kept' },
      },
    );
};
