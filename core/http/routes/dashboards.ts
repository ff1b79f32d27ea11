/** /dashboards: saved dashboards of metric panels (a title, a metric query, a chart type each). */
import { Elysia, t } from 'elysia';
import { chartTypes, maxDashboardNameLength, maxPanels, maxPanelTitleLength, maxQueryBytes } from '../../domain/dashboard-rules.ts';
import { toDashboardView } from '../../services/dashboards.ts';
import { PageQuery, pagedList } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, errorResponses, IdParams, NonBlank, Timestamp } from '../schemas/common.ts';
import { literalUnion } from '../schemas/literal-union.ts';

const Chart = literalUnion(chartTypes, { description: chartTypes.join(', ') });
const Query = t.Union([t.String({ minLength: 1 }), t.Record(t.String(), t.Unknown(), { minProperties: 1 })], {
  description: `a metric query as GET /metrics/query takes it: a query string (metric=...&step=...) or an object of its parameters; at most ${maxQueryBytes} bytes. Stored as given; the query endpoint runs it`,
});
const Panel = t.Object(
  { title: NonBlank({ maxLength: maxPanelTitleLength }), query: Query, chart: Chart },
  { additionalProperties: false, title: 'DashboardPanel' },
);
const Panels = t.Array(Panel, { maxItems: maxPanels });

const DashboardView = t.Object(
  { id: t.String(), name: t.String(), panels: t.Array(Panel), created_at: Timestamp, updated_at: Timestamp },
  { title: 'Dashboard' },
);
const DashboardInput = (title: string) =>
  t.Object(
    { name: NonBlank({ maxLength: maxDashboardNameLength }), panels: t.Optional(Panels) },
    { additionalProperties: false, title, description: 'panels default to none' },
  );

export const dashboardRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/dashboards', detail: { tags: ['Dashboards'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get('', (context) => pagedList(context, (page) => deps.dashboards.list(context.caller, page), toDashboardView), {
      query: PageQuery,
      response: { 200: t.Array(DashboardView), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
      detail: { summary: "The workspace's dashboards, newest first" },
    })
    .post(
      '',
      async ({ caller, body, set }) => {
        const row = await deps.dashboards.create(caller, body);
        set.status = 201;
        return toDashboardView(row);
      },
      {
        body: DashboardInput('DashboardCreate'),
        response: { 201: DashboardView, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
        detail: { summary: 'Save a dashboard' },
      },
    )
    .get('/:id', async ({ caller, params }) => toDashboardView(await deps.dashboards.get(caller, params.id)), {
      params: IdParams,
      response: { 200: DashboardView, 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
      detail: { summary: 'One dashboard' },
    })
    .put('/:id', async ({ caller, params, body }) => toDashboardView(await deps.dashboards.replace(caller, params.id, body)), {
      params: IdParams,
      body: DashboardInput('DashboardReplace'),
      response: { 200: DashboardView, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
      detail: { summary: 'Replace the name and panels' },
    })
    .delete(
      '/:id',
      async ({ caller, params, set }) => {
        await deps.dashboards.remove(caller, params.id);
        set.status = 204;
      },
      {
        params: IdParams,
        response: { 204: t.Void(), 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: { summary: 'Delete a dashboard' },
      },
    );
