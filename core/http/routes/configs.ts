/** /configs: named load configurations (vus + duration, or stages) that runs use through configId. */
import { Elysia, t } from 'elysia';
import { maxStages, maxVus } from '../../domain/load-config.ts';
import { toConfigView } from '../../services/configs.ts';
import { PageQuery, pagedList } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, documented, errorResponses, IdParams, Integer, jsWhitespace, NonBlank, Timestamp } from '../schemas/common.ts';

// Go-style durations as parseDuration reads them: 500ms, 30s, 5m, 1h30m, 1.5s (a run lasts at most 24h in all).
const Duration = (description: string) =>
  t.String({ description, ...documented({ pattern: `^[${jsWhitespace}]*([0-9]+(\\.[0-9]+)?(ms|s|m|h))+[${jsWhitespace}]*$` }) });
const Stage = t.Object(
  { duration: Duration('e.g. 30s, 5m'), target: Integer({ minimum: 0, description: 'VUs at the end of the stage', ...documented({ maximum: maxVus }) }) },
  { additionalProperties: false },
);
const ConfigView = t.Object(
  {
    id: t.String(),
    name: t.String(),
    vus: t.Nullable(Integer()),
    duration: t.Nullable(t.String()),
    stages: t.Nullable(t.Array(Stage)),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'LoadConfig' },
);
const fields = {
  vus: t.Optional(Integer({ minimum: 1, description: 'with duration', ...documented({ maximum: maxVus }) })),
  duration: t.Optional(Duration('with vus, e.g. 30s, 5m, 1h30m; more than 0s, at most 24h')),
  stages: t.Optional(
    t.Array(Stage, { minItems: 1, maxItems: maxStages, description: 'instead of vus + duration; more than 0s and at most 24h in all, some target above 0' }),
  ),
};
const description = 'Either vus with duration, or stages; never both.';

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
        body: t.Object({ name: NonBlank({ maxLength: 200 }), ...fields }, { additionalProperties: false, description }),
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
      body: t.Object({ name: t.Optional(NonBlank({ maxLength: 200 })), ...fields }, { additionalProperties: false, description }),
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
