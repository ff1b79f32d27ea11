/** /api-tokens: personal API tokens of the caller in this workspace; the plaintext is shown once, at creation and rotation. */
import { Elysia, t } from 'elysia';
import { scopes } from '../../domain/scopes.ts';
import { toApiTokenView } from '../../services/api-tokens.ts';
import { PageQuery, pagedList } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, documented, errorResponses, IdParams, NonBlank, Timestamp, TimestampInput } from '../schemas/common.ts';

const ApiTokenView = t.Object(
  {
    id: t.String(),
    name: t.String(),
    scopes: t.Array(t.String(), { description: `empty: full access; else any of ${scopes.join(', ')}` }),
    expires_at: t.Nullable(Timestamp),
    last_used_at: t.Nullable(Timestamp, { description: 'updated at most every few minutes' }),
    created_at: Timestamp,
    rotated_at: t.Nullable(Timestamp),
    prefix: t.String({ description: 'the first characters of the secret' }),
    user_id: t.String(),
  },
  { title: 'ApiToken' },
);

const CreatedToken = t.Composite([ApiTokenView, t.Object({ token: t.String({ description: 'psk_...; shown only here' }) })], {
  title: 'CreatedApiToken',
});

export const apiTokenRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/api-tokens', detail: { tags: ['API tokens'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get('', (context) => pagedList(context, (page) => deps.apiTokens.list(context.caller, page), toApiTokenView), {
      query: PageQuery,
      response: { 200: t.Array(ApiTokenView), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
      detail: { summary: "The caller's API tokens in this workspace (never the plaintext)" },
    })
    .post(
      '',
      async ({ caller, body, set }) => {
        const { record, plaintext } = await deps.apiTokens.create(caller, body);
        set.status = 201;
        return { ...toApiTokenView(record), token: plaintext };
      },
      {
        body: t.Object(
          {
            name: NonBlank({ maxLength: 100 }),
            scopes: t.Optional(t.Array(t.String(documented({ enum: scopes })), { maxItems: 20, description: 'omit or [] for full access' })),
            expires_at: t.Optional(
              t.Nullable(TimestampInput({ description: 'RFC 3339, in the future and at most 5 years ahead; omit or null: never expires' })),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 201: CreatedToken, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
        detail: { summary: 'Create a token; needs manage_api_tokens; the plan limits tokens per user' },
      },
    )
    .delete(
      '/:id',
      async ({ caller, params, set }) => {
        await deps.apiTokens.revoke(caller, params.id);
        set.status = 204;
      },
      {
        params: IdParams,
        response: { 204: t.Void(), 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: { summary: 'Revoke a token; it stops working at once' },
      },
    )
    .post(
      '/:id/rotate',
      async ({ caller, params }) => {
        const { record, plaintext } = await deps.apiTokens.rotate(caller, params.id);
        return { id: record.id, token: plaintext };
      },
      {
        params: IdParams,
        response: {
          200: t.Object({ id: t.String(), token: t.String({ description: 'the new psk_ secret, shown once' }) }),
          401: errorResponses[401],
          403: errorResponses[403],
          404: errorResponses[404],
          409: errorResponses[409],
        },
        detail: { summary: 'Replace the secret; name, scopes and expiry stay; the old secret stops working at once' },
      },
    );
