/** /mcp-servers: a workspace's remote MCP servers (name, streamable-HTTP URL, headers); header values are write-only. */
import { Elysia, t } from 'elysia';
import {
  headerNamePattern,
  maxHeaderValueLength,
  maxHeadersPerServer,
  maxMcpServersPerWorkspace,
  maxMcpUrlLength,
  maxServerNameLength,
  serverNamePattern,
} from '../../domain/mcp-server-rules.ts';
import { toMcpServerView } from '../../services/mcp-servers/mcp-servers.ts';
import { PageQuery, pagedList } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, documented, errorResponses, IdParams, Timestamp } from '../schemas/common.ts';

const McpServerView = t.Object(
  {
    id: t.String(),
    name: t.String({ description: "the prefix of the server's tools: <name>__<tool>" }),
    url: t.String(),
    header_names: t.Array(t.String(), { description: 'lower-case names of the stored headers; their values are never shown' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'McpServer' },
);

// The service checks names, URLs and headers with messages that name the rule; the document states the rules.
const Name = t.String({
  minLength: 1,
  maxLength: maxServerNameLength,
  description: 'a lower-case letter, then up to 31 lower-case letters, digits, _ or - (no "__"); unique in the workspace',
  ...documented({ pattern: serverNamePattern }),
});
const Url = t.String({
  minLength: 1,
  maxLength: maxMcpUrlLength,
  description: "http(s) URL of the server's streamable-HTTP endpoint; private, loopback and link-local hosts need WEBHOOK_ALLOW_HOSTS",
  ...documented({ format: 'uri', pattern: '^https?://[^\\s/?#@]+' }),
});
const HeaderValue = t.String({ minLength: 1, maxLength: maxHeaderValueLength, ...documented({ pattern: '^[\\t\\x20-\\x7e]+$' }) });
const headersDescription = `at most ${maxHeadersPerServer}; names are HTTP field names (compared without case; the transport's own, such as content-type or mcp-session-id, are refused), values visible ASCII`;
const Headers = t.Record(t.String(), HeaderValue, {
  description: `headers sent with every request to the server, e.g. {"authorization": "Bearer ..."}; stored encrypted, never shown; ${headersDescription}`,
  ...documented({ maxProperties: maxHeadersPerServer, propertyNames: { pattern: headerNamePattern } }),
});
const HeaderChanges = t.Record(t.String(), t.Nullable(HeaderValue), {
  description: `merged into the stored headers: a value sets that header, null removes it, headers not named stay; ${headersDescription}`,
  ...documented({ maxProperties: maxHeadersPerServer, propertyNames: { pattern: headerNamePattern } }),
});

const McpServerCreate = t.Object({ name: Name, url: Url, headers: t.Optional(Headers) }, { additionalProperties: false, title: 'McpServerCreate' });
const McpServerPatch = t.Object(
  { name: t.Optional(Name), url: t.Optional(Url), headers: t.Optional(HeaderChanges) },
  { additionalProperties: false, title: 'McpServerPatch' },
);

export const mcpServerRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/mcp-servers', detail: { tags: ['MCP servers'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get('', (context) => pagedList(context, (page) => deps.mcpServers.list(context.caller, page), toMcpServerView), {
      query: PageQuery,
      response: { 200: t.Array(McpServerView), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
      detail: { summary: "The workspace's remote MCP servers, newest first (header names only, never values; manage_mcp_servers)" },
    })
    .post(
      '',
      async ({ caller, body, set }) => {
        const row = await deps.mcpServers.create(caller, body);
        set.status = 201;
        return toMcpServerView(row);
      },
      {
        body: McpServerCreate,
        response: { 201: McpServerView, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 409: errorResponses[409] },
        detail: {
          summary: `Attach a remote MCP server (at most ${maxMcpServersPerWorkspace} per workspace); its tools are offered as <name>__<tool>`,
        },
      },
    )
    .get('/:id', async ({ caller, params }) => toMcpServerView(await deps.mcpServers.get(caller, params.id)), {
      params: IdParams,
      response: { 200: McpServerView, 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
      detail: { summary: 'One remote MCP server' },
    })
    .patch('/:id', async ({ caller, params, body }) => toMcpServerView(await deps.mcpServers.update(caller, params.id, body)), {
      params: IdParams,
      body: McpServerPatch,
      response: {
        200: McpServerView,
        400: errorResponses[400],
        401: errorResponses[401],
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
      detail: { summary: 'Rename the server, change its URL, or set and remove headers' },
    })
    .delete(
      '/:id',
      async ({ caller, params, set }) => {
        await deps.mcpServers.remove(caller, params.id);
        set.status = 204;
      },
      {
        params: IdParams,
        response: { 204: t.Void(), 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: { summary: 'Detach the server; its tools are no longer offered' },
      },
    );
