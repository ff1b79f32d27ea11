/**
 * The MCP server both transports share (the SDK's low-level Server, so our TypeBox schemas go out as the JSON Schema
 * they are): tools/list and tools/call over the one tool registry, resources for the script formats. A server is made
 * per HTTP request (stateless) or once per stdio process, around the REST client of its caller.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { callRemoteTool, remoteListing, remoteTools } from './remote-tools.ts';
import { scriptFormats } from './script-formats.ts';
import { mcpTools, toolsByName } from './tool-list.ts';
import { runTool, type ToolContext, toolListing } from './tool-registry.ts';

export interface McpServerOptions {
  version: string;
  /** What every tool call gets; `signal` (the HTTP request's, when there is one) joins each call's own. */
  context: Omit<ToolContext, 'signal'> & { signal?: AbortSignal };
}

const instructions =
  'Loadplane is a load-testing control plane: tests (a script and the tool that runs it) run on machines of this workspace, and each run ' +
  'reports p50/p95/p99 latency in milliseconds, error_rate as a fraction 0..1, requests_per_sec and total_requests. A typical session: ' +
  'whoami (what you may do), list_tests or write_test (native HTTP steps need no code; the loadplane://script-formats/<tool> resources ' +
  'show each script format, validate_test checks one), run_test, wait_for_run, then get_run_verdict (thresholds), get_run_endpoints and get_run_errors (what was slow or failed), ' +
  'compare_runs (with another run or the test\'s baseline: set_baseline), get_run_logs or query_metrics; write_schedule runs a test by ' +
  'cron (list_schedules shows them). Lists are paged ' +
  '(limit, cursor -> next_cursor). Every tool call counts against the workspace\'s monthly AI tool-call budget (usage).';

export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(
    { name: 'loadplane', title: 'Loadplane', version: options.version },
    { capabilities: { tools: { listChanged: false }, resources: { listChanged: false } }, instructions },
  );

  // The base tools, then the remote servers' (prefixed) for a caller the service lets use them; a remote server that
  // does not answer is skipped by the service within its short deadline, so the base tools are always listed.
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const remote = await remoteTools(options.context).catch((error: unknown) => {
      options.context.logger.warn('remote MCP tools not listed', { error: String(error) });
      return [];
    });
    return { tools: [...mcpTools.map(toolListing), ...remote.map(remoteListing)] };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const outer = options.context.signal;
    const context = { ...options.context, signal: outer ? AbortSignal.any([outer, extra.signal]) : extra.signal };
    const tool = toolsByName.get(request.params.name);
    if (tool) return runTool(tool, request.params.arguments, context);
    const remote = await callRemoteTool(request.params.name, request.params.arguments, context);
    if (remote) return remote;
    throw new McpError(ErrorCode.InvalidParams, `no tool named ${request.params.name}; tools/list names them`);
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: scriptFormats.map((format) => ({
      uri: format.uri,
      name: `${format.tool}-script-format`,
      title: format.title,
      description: `How a ${format.tool} test's script looks, with an example the service accepts`,
      mimeType: 'text/markdown',
    })),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const format = scriptFormats.find((each) => each.uri === request.params.uri);
    // -32002: the MCP specification's code for an unknown resource.
    if (!format) throw new McpError(-32002, `no resource ${request.params.uri}; resources/list names them`);
    return { contents: [{ uri: format.uri, mimeType: 'text/markdown', text: format.text }] };
  });

  return server;
}
