/** /configs: named load configurations (vus + duration, or stages) that runs use through configId. */
import { Elysia, t } from 'elysia';
import { toConfigView } from '../../services/configs.ts';
import { PageQuery, pagedList } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, errorResponses, IdParams, Timestamp } from '../schemas/common.ts';

const Stage = t.Object({ duration: t.String({ description: 'e.g. 30s, 5m' }), target: t.Integer({ minimum: 0 }) }, { additionalProperties: false });
const ConfigView = t.Object(
  {
    id: t.String(),
    name: t.String(),
    vus: t.Nullable(t.Integer()),
    duration: t.Nullable(t.String()),
    stages: t.Nullable(t.Array(Stage)),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'LoadConfig' },
);
const fields = {
  vus: t.Optional(t.Integer({ minimum: 1, description: 'with duration' })),
  duration: t.Optional(t.String({ description: 'with vus, e.g. 30s, 5m, 1h' })),
  stages: t.Optional(t.Array(Stage, { minItems: 1, maxItems: 100, description: 'instead of vus + duration' })),
};

export const configRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/configs', detail: { tags: ['Load configurations'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get(
      '',
      (context) => pagedList(context, (page) => deps.configs.list(context.caller, page), toConfigView),
      { query: PageQuery, response: { 200: t.Array(ConfigView), 401: errorResponses[401], 403: errorResponses[403] }, detail: { summary: 'Load configurations, newest first' } },
    )
    .post(
      '',
      async ({ caller, body, set }) => {
        set.status = 201;
        return toConfigView(await deps.configs.create(caller, body));
      },
      {
        body: t.Object({ name: t.String({ minLength: 1, maxLength: 200 }), ...fields }, { additionalProperties: false }),
        response: { 201: ConfigView, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
        detail: { summary: 'Create a load configuration' },
      },
    )
    .get('/:id', async ({ caller, params }) => toConfigView(await deps.configs.find(caller, params.id)), {
      params: IdParams,
      response: { 200: ConfigView, 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
      detail: { summary: 'A load configuration' },
    })
    .patch('/:id', async ({ caller, params, body }) => toConfigView(await deps.configs.update(caller, params.id, body)), {
      params: IdParams,
      body: t.Object({ name: t.Optional(t.String({ minLength: 1, maxLength: 200 })), ...fields }, { additionalProperties: false }),
      response: { 200: ConfigView, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
      detail: { summary: 'Rename, or replace the load shape whole' },
    })
    .delete(
      '/:id',
      async ({ caller, params, set }) => {
        await deps.configs.remove(caller, params.id);
        set.status = 204;
      },
      { params: IdParams, response: { 204: t.Void(), 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] }, detail: { summary: 'Delete a load configuration' } },
    );
