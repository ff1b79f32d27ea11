/** /tests: list, read, create, edit and delete the caller's workspace's test definitions. */
import { Elysia, t } from 'elysia';
import { PageQuery, pagedList } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, errorResponses, IdParams } from '../schemas/common.ts';
import { testSchemas, toTestView } from '../schemas/test-definition.ts';

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
