/**
 * /mcp-servers/tools and /mcp-servers/{id}/call: the proxy to the workspace's remote MCP servers, for the MCP server
 * (stdio and HTTP) and ASK AI, so the servers' headers never leave the service. Admins only for now (manage_mcp_servers).
 */
import { Elysia, t } from 'elysia';
import { maxToolsPerServer } from '../../domain/mcp-server-rules.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, documented, errorResponses, IdParams } from '../schemas/common.ts';

const JsonObject = t.Record(t.String(), t.Unknown());

const RemoteTool = t.Object(
  {
    server: t.String({ description: 'the server name' }),
    server_id: t.String({ description: 'the server id, for POST /mcp-servers/{id}/call' }),
    name: t.String({ description: "the tool's name on its server (what /call takes)" }),
    prefixed_name: t.String({ description: '<server>__<name>: the name to offer the tool under' }),
    title: t.Optional(t.String()),
    description: t.String(),
    input_schema: JsonObject,
    output_schema: t.Optional(JsonObject),
    annotations: t.Optional(JsonObject),
  },
  { title: 'RemoteMcpTool' },
);

const RemoteToolList = t.Object(
  {
    tools: t.Array(RemoteTool, { description: `by server name, each server's tools in its order (at most ${maxToolsPerServer} a server)` }),
    skipped: t.Array(
      t.Object({ server: t.String(), server_id: t.String(), reason: t.String({ description: 'why it was skipped: unreachable, too slow, refused address, HTTP or protocol error' }) }),
      { description: 'servers that failed to list their tools in time; the others are listed all the same' },
    ),
  },
  { title: 'RemoteMcpToolList' },
);

const CallBody = t.Object(
  {
    tool: t.String({ minLength: 1, maxLength: 128, description: "the tool's name on its server (not the prefixed name)" }),
    arguments: t.Optional(t.Record(t.String(), t.Unknown(), { description: "the tool's arguments, as its input_schema says (default {})" })),
  },
  { additionalProperties: false, title: 'RemoteMcpCall' },
);

const CallResult = t.Object(
  {
    content: t.Array(t.Unknown(), { description: "MCP content items as the server sent them (text, image, resource ...)" }),
    structuredContent: t.Optional(JsonObject),
    isError: t.Boolean({ description: 'the tool reported an error (its content says which)' }),
    truncated: t.Boolean({ description: 'the result was larger than 1 MiB and was cut; the last content item says what was left out' }),
  },
  { title: 'RemoteMcpCallResult', ...documented({ description: 'the MCP CallToolResult of the remote server, plus truncated' }) },
);

export const mcpServerToolRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/mcp-servers', detail: { tags: ['MCP servers'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get('/tools', ({ caller }) => deps.remoteTools.listTools(caller), {
      response: { 200: RemoteToolList, 401: errorResponses[401], 403: errorResponses[403] },
      detail: {
        summary: 'The tools of every remote MCP server of the workspace, prefixed; a server that fails within its short deadline is skipped',
      },
    })
    .post('/:id/call', ({ caller, params, body }) => deps.remoteTools.callTool(caller, params.id, body.tool, body.arguments ?? {}), {
      params: IdParams,
      body: CallBody,
      response: {
        200: CallResult,
        400: errorResponses[400],
        401: errorResponses[401],
        403: errorResponses[403],
        404: errorResponses[404],
        502: errorResponses[502],
      },
      detail: { summary: 'Call one tool of a remote MCP server with its stored headers; its result, bounded in size and time' },
    });
