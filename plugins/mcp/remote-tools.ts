/**
 * The tools of the workspace's remote MCP servers, prefixed `<server>__<tool>`, for callers who may use them (admins:
 * the service answers 403 to others, which means "none"). Listed and called through the service's REST proxy
 * (GET /mcp-servers/tools, POST /mcp-servers/{id}/call), so the servers' headers never leave the service, and the stdio
 * server offers them as the HTTP endpoint does. Each call counts against the AI budget like a base tool's.
 */
import { chargeToolCall } from './budget.ts';
import { RestError } from './rest-client.ts';
import { type ToolContext, toolError, type ToolResult } from './tool-registry.ts';

interface RemoteToolEntry {
  server: string;
  server_id: string;
  name: string;
  prefixed_name: string;
  title?: string;
  description?: string;
  input_schema: Record<string, unknown>;
  output_schema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

interface RemoteCallAnswer {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  truncated?: boolean;
}

/** The remote tools this caller may use; none when the service refuses them (not an admin) or has no proxy. */
export async function remoteTools(ctx: Pick<ToolContext, 'rest' | 'logger'>): Promise<RemoteToolEntry[]> {
  try {
    const answer = await ctx.rest.get<{ tools: RemoteToolEntry[]; skipped: { server: string; reason: string }[] }>('/mcp-servers/tools');
    for (const skipped of answer.skipped) ctx.logger.warn('remote MCP server skipped', { server: skipped.server, reason: skipped.reason });
    return answer.tools;
  } catch (error) {
    // 403: not an admin (or a scoped token), so no remote tools; 404/405: a service without remote servers.
    if (error instanceof RestError && [403, 404, 405].includes(error.status)) return [];
    throw error;
  }
}

/** A remote tool's entry in tools/list: its own schemas and annotations under the prefixed name. */
export function remoteListing(entry: RemoteToolEntry) {
  return {
    name: entry.prefixed_name,
    ...(entry.title ? { title: `${entry.server}: ${entry.title}` } : {}),
    description: `[remote MCP server "${entry.server}"] ${entry.description ?? ''}`.trim(),
    inputSchema: { type: 'object' as const, ...entry.input_schema },
    ...(entry.output_schema ? { outputSchema: { type: 'object' as const, ...entry.output_schema } } : {}),
    ...(entry.annotations ? { annotations: entry.annotations } : {}),
  };
}

/** Calls the remote tool named `prefixed` (null when no remote tool has that name): counted first, then proxied. */
export async function callRemoteTool(prefixed: string, args: unknown, ctx: ToolContext): Promise<ToolResult | null> {
  if (!prefixed.includes('__')) return null;
  let entry: RemoteToolEntry | undefined;
  try {
    entry = (await remoteTools(ctx)).find((each) => each.prefixed_name === prefixed);
  } catch (error) {
    if (error instanceof RestError) return toolError(error.status, error.code, error.message);
    throw error;
  }
  if (!entry) return null;
  try {
    await chargeToolCall(ctx);
    const answer = await ctx.rest.send<RemoteCallAnswer>('POST', `/mcp-servers/${encodeURIComponent(entry.server_id)}/call`, {
      tool: entry.name,
      arguments: args ?? {},
    });
    return {
      content: answer.content as ToolResult['content'],
      ...(answer.structuredContent ? { structuredContent: answer.structuredContent } : {}),
      ...(answer.isError ? { isError: true } : {}),
    };
  } catch (error) {
    if (error instanceof RestError) return toolError(error.status, error.code, error.message);
    throw error;
  }
}
