/**
 * POST /api/mcp: the MCP endpoint, streamable HTTP and stateless. Each request gets its own server and transport
 * around a REST client that carries the caller's bearer token into the service in process, so every tool sees
 * exactly what REST lets that token see. GET and DELETE (sessions, server-sent streams) have no route here: the
 * app answers them 405 with `Allow: POST` and the spec's `{error, message}`, as it does for every route.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Elysia } from 'elysia';
import type { Logger } from 'loadplane/plugin';
import { createMcpServer } from './mcp-server.ts';
import { createRestClient, type Fetch, RestError, serviceAddress } from './rest-client.ts';
import type { ScriptValidator } from './script-validator.ts';

export const mcpPath = '/api/mcp';

export interface McpEndpointOptions {
  publicUrl: string;
  maxBodyBytes: number;
  version: string;
  /** Reaches the service's own origin in process (outboundFetchPort). */
  fetch: Fetch;
  validateScript: ScriptValidator;
  logger: Logger;
}

/** Headers of the MCP request that REST reads too: a JWT caller's choice of workspace. */
const passedOn = ['x-workspace-id'];

function jsonError(status: number, error: string, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error, message }), { status, headers: { 'content-type': 'application/json', ...headers } });
}

function bearerOf(request: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  return match ? match[1]! : null;
}

export function mcpHttpRoutes(options: McpEndpointOptions) {
  const address = serviceAddress(options.publicUrl);
  return new Elysia({ name: 'mcp-endpoint', normalize: false }).post(
    mcpPath,
    async ({ request }) => {
      const token = bearerOf(request);
      if (!token) return jsonError(401, 'unauthorized', 'send Authorization: Bearer <API token> (an API token, psk_...)', { 'www-authenticate': 'Bearer' });
      const headers = Object.fromEntries(passedOn.flatMap((name) => (request.headers.has(name) ? [[name, request.headers.get(name)!]] : [])));
      const rest = createRestClient({ address, token, fetch: options.fetch, headers, signal: request.signal });
      try {
        // Every request, tools/list too, proves its token: the cheapest route any token may call.
        await rest.get('/auth/me');
      } catch (error) {
        if (!(error instanceof RestError)) throw error;
        return jsonError(error.status || 502, error.code, error.message, error.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
      }
      const server = createMcpServer({
        version: options.version,
        context: { rest, validateScript: options.validateScript, logger: options.logger, signal: request.signal },
      });
      // Stateless: no session id. Answers stream as SSE, whose keep-alive comments hold a long tool call (wait_for_run)
      // open past the server's idle timeout. The transport reads the body itself, within the service's body limit.
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: options.maxBodyBytes });
      await server.connect(transport);
      return transport.handleRequest(request);
    },
    // The transport reads the raw body: parsed by Elysia first, it would find the stream used (-32700).
    { parse: 'none', detail: { hide: true } },
  );
}
