/**
 * /api/v1/webhooks: a workspace's outgoing webhooks, their deliveries with every attempt, test pings, secret rotation and
 * redelivery; served through the host's API routes (its authentication, policies and OpenAPI document).
 */
import { Elysia, t } from 'elysia';
import {
  type ApiRoutes,
  bearerSecurity,
  type CallerGuard,
  documented,
  errorResponses,
  IdParams,
  Integer,
  PageQuery,
  pagedList,
  type RoutePolicy,
  Timestamp,
  webhookEvents,
} from 'loadplane/plugin';
import { toDeliveryView, toWebhookView, type WebhookService } from './webhook-admin.ts';

// The service names the bad value itself; the document states the allowed ones (see documented()).
const EventName = t.String({ description: `one of ${webhookEvents.join(', ')}`, ...documented({ enum: [...webhookEvents] }) });
/** An http(s) URL; whether its host may be reached is decided at creation and at every delivery. */
const TargetUrl = t.String({
  minLength: 1,
  maxLength: 2048,
  description: 'http(s); private, loopback and link-local targets need WEBHOOK_ALLOW_HOSTS',
  ...documented({ format: 'uri', pattern: '^https?://[^\\s/?#@]+' }),
});

const WebhookView = t.Object(
  {
    id: t.String(),
    url: t.String(),
    description: t.Nullable(t.String()),
    events: t.Array(EventName),
    enabled: t.Boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
    secret_rotated_at: t.Nullable(Timestamp),
  },
  { title: 'Webhook' },
);

const CreatedWebhook = t.Composite([WebhookView, t.Object({ secret: t.String({ description: 'whsec_...; shown only here' }) })], {
  title: 'CreatedWebhook',
});

const Attempt = t.Object(
  {
    attempted_at: Timestamp,
    outcome: t.String({ description: 'success or failure' }),
    status_code: t.Nullable(Integer()),
    duration_ms: Integer(),
    error: t.Nullable(t.String({ description: 'why it failed: status, timeout, redirect, connection error, refused address' })),
    response_excerpt: t.Nullable(t.String({ description: "the first bytes of the endpoint's answer" })),
  },
  { title: 'WebhookAttempt' },
);

const DeliveryView = t.Object(
  {
    id: t.String({ description: 'X-Service-Delivery' }),
    webhook_id: t.String(),
    event: t.String(),
    envelope: t.Object(
      { id: t.String(), event: t.String(), created_at: Timestamp, tenant_id: t.String(), data: t.Record(t.String(), t.Unknown()) },
      { description: 'the body sent, byte for byte as serialised here' },
    ),
    state: t.String({ description: 'waiting, delivered or failed' }),
    attempt_count: Integer(),
    next_attempt_at: t.Nullable(Timestamp),
    redelivery_of: t.Nullable(t.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
    attempts: t.Array(Attempt, { description: 'newest first' }),
  },
  { title: 'WebhookDelivery' },
);

const WebhookCreate = t.Object(
  {
    url: TargetUrl,
    events: t.Array(EventName, { minItems: 1, maxItems: 3 }),
    description: t.Optional(t.Nullable(t.String())),
    enabled: t.Optional(t.Boolean()),
  },
  { additionalProperties: false },
);

const WebhookPatch = t.Object(
  {
    url: t.Optional(TargetUrl),
    events: t.Optional(t.Array(EventName, { minItems: 1, maxItems: 3 })),
    description: t.Optional(t.Nullable(t.String())),
    enabled: t.Optional(t.Boolean()),
  },
  { additionalProperties: false },
);

const DeliveryParams = t.Object({ id: t.String(), deliveryId: t.String() });

/** These actions take no input; an empty object (or no body at all) is accepted. */
const NoInput = t.Optional(t.Object({}, { additionalProperties: false }));

// Webhook secrets and endpoints are an admin's: manage_webhooks, and never through a scoped token.
const admins: RoutePolicy = { scope: null, permission: 'manage_webhooks' };

export const webhookRoutes = (webhooks: WebhookService): ApiRoutes => ({
  name: 'notify-webhook',
  policies: {
    'GET /api/v1/webhooks': admins,
    'POST /api/v1/webhooks': admins,
    'GET /api/v1/webhooks/:id': admins,
    'PATCH /api/v1/webhooks/:id': admins,
    'DELETE /api/v1/webhooks/:id': admins,
    'POST /api/v1/webhooks/:id/rotate': admins,
    'POST /api/v1/webhooks/:id/test': admins,
    'GET /api/v1/webhooks/:id/deliveries': admins,
    'POST /api/v1/webhooks/:id/deliveries/:deliveryId/redeliver': admins,
  },
  routes: (kit) => routesOf(webhooks, kit.requireCaller()),
});

const routesOf = (webhooks: WebhookService, requireCaller: CallerGuard) =>
  new Elysia({ normalize: false, prefix: '/webhooks', detail: { tags: ['Webhooks'], security: bearerSecurity } })
    .use(requireCaller)
    .get('', (context) => pagedList(context, (page) => webhooks.list(context.caller, page), (row) => toWebhookView(row)), {
      query: PageQuery,
      response: { 200: t.Array(WebhookView), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
      detail: { summary: "The workspace's webhooks, newest first (never the secret)" },
    })
    .post(
      '',
      async ({ caller, body, set }) => {
        const { row, secret } = await webhooks.create(caller, body);
        set.status = 201;
        return { ...toWebhookView(row), secret };
      },
      {
        body: WebhookCreate,
        response: { 201: CreatedWebhook, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
        detail: { summary: 'Create a webhook; the signing secret is in this answer only' },
      },
    )
    .get('/:id', async ({ caller, params }) => toWebhookView(await webhooks.get(caller, params.id)), {
      params: IdParams,
      response: { 200: WebhookView, 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
      detail: { summary: 'One webhook' },
    })
    .patch('/:id', async ({ caller, params, body }) => toWebhookView(await webhooks.update(caller, params.id, body)), {
      params: IdParams,
      body: WebhookPatch,
      response: { 200: WebhookView, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
      detail: { summary: 'Change the URL, events, description or enabled flag' },
    })
    .delete(
      '/:id',
      async ({ caller, params, set }) => {
        await webhooks.remove(caller, params.id);
        set.status = 204;
      },
      {
        params: IdParams,
        response: { 204: t.Void(), 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: { summary: 'Delete a webhook and its delivery history; waiting deliveries are dropped' },
      },
    )
    .post('/:id/rotate', async ({ caller, params }) => webhooks.rotateSecret(caller, params.id), {
      params: IdParams,
      response: {
        200: t.Object({ id: t.String(), secret: t.String({ description: 'the new whsec_ secret, shown once' }) }),
        401: errorResponses[401],
        403: errorResponses[403],
        404: errorResponses[404],
      },
      detail: { summary: 'Replace the signing secret; every attempt from now on is signed with the new one' },
    })
    .post(
      '/:id/test',
      async ({ caller, params, set }) => {
        const delivery = await webhooks.ping(caller, params.id);
        set.status = 202;
        return toDeliveryView(delivery);
      },
      {
        params: IdParams,
        body: NoInput,
        response: { 202: DeliveryView, 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: { summary: 'Queue a test.ping to this webhook; its result lands in the delivery history' },
      },
    )
    .get(
      '/:id/deliveries',
      (context) => pagedList(context, (page) => webhooks.deliveries(context.caller, context.params.id, page), (row) => toDeliveryView(row)),
      {
        params: IdParams,
        query: PageQuery,
        response: { 200: t.Array(DeliveryView), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: { summary: 'Deliveries of this webhook, newest first, each with every attempt (newest first) and the next attempt time' },
      },
    )
    .post(
      '/:id/deliveries/:deliveryId/redeliver',
      async ({ caller, params, set }) => {
        const delivery = await webhooks.redeliver(caller, params.id, params.deliveryId);
        set.status = 202;
        return toDeliveryView(delivery);
      },
      {
        params: DeliveryParams,
        body: NoInput,
        response: { 202: DeliveryView, 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404], 409: errorResponses[409] },
        detail: { summary: 'Send a finished (delivered or failed) delivery again, as a new delivery with the same envelope' },
      },
    );
