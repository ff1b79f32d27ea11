/**
 * A real remote MCP server for tests: the SDK's McpServer over its web-standard streamable HTTP transport on Bun.serve
 * on loopback, stateless (a fresh server per request, as the SDK documents) or with sessions. It answers 401 without
 * the expected `x-api-key` and records every request's headers, so a test sees what reached it.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';

export interface RemoteMcpServer {
  /** The MCP endpoint, http://127.0.0.1:<port>/mcp. */
  url: string;
  port: number;
  /** Every request that reached the server, in order. */
  received: { method: string; path: string; headers: Record<string, string> }[];
  /** Sessions open now (a server with sessions). */
  openSessions(): number;
  stop(): Promise<void>;
}

export interface RemoteMcpServerOptions {
  apiKey: string;
  /** Bytes of text the tool `big` answers with. */
  bigTextBytes?: number;
  /** Keep a session per client (mcp-session-id), ended by the client's DELETE. */
  stateful?: boolean;
}

function mcpServer(options: RemoteMcpServerOptions): McpServer {
  const server = new McpServer({ name: 'test-remote', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Answers with the text it was given.',
      inputSchema: { text: z.string().describe('what to echo') },
      outputSchema: { echoed: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }], structuredContent: { echoed: text } }),
  );
  server.registerTool('big', { description: 'Answers with a large text.' }, async () => ({
    content: [{ type: 'text', text: 'x'.repeat(options.bigTextBytes ?? 1536 * 1024) }, { type: 'text', text: 'after the big one' }],
  }));
  server.registerTool('fails', { description: 'Reports a tool error.' }, async () => ({ content: [{ type: 'text', text: 'it broke' }], isError: true }));
  return server;
}

export function startRemoteMcpServer(options: RemoteMcpServerOptions): RemoteMcpServer {
  const received: RemoteMcpServer['received'] = [];
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const http = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      received.push({ method: request.method, path: url.pathname, headers });
      if (url.pathname !== '/mcp') return new Response('not found', { status: 404 });
      if (request.headers.get('x-api-key') !== options.apiKey) return Response.json({ error: 'unauthorized' }, { status: 401 });
      const session = request.headers.get('mcp-session-id');
      let transport = session ? sessions.get(session) : undefined;
      if (!transport) {
        const created = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: options.stateful ? () => crypto.randomUUID() : undefined,
          onsessioninitialized: (id) => void sessions.set(id, created),
          onsessionclosed: (id) => void sessions.delete(id),
        });
        await mcpServer(options).connect(created);
        transport = created;
      }
      return transport.handleRequest(request);
    },
  });
  const port = http.port!;
  return { url: `http://127.0.0.1:${port}/mcp`, port, received, openSessions: () => sessions.size, stop: () => http.stop(true) };
}
