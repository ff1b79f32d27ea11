/**
 * The proxy to a workspace's remote MCP servers, so the stdio MCP server (which has only REST) and the HTTP one can
 * offer their tools while the headers stay in the service: the tools of every server, each asked in parallel within a
 * short deadline and skipped with a reason when it fails; and one call, bounded in time and size. Only stored servers
 * are contacted, and each URL passes the outbound guard again at every request (a name may resolve elsewhere by now).
 */
import { formatIp } from '../../domain/ip-address.ts';
import { maxToolPages, maxToolsPerServer, prefixedToolName, type RemoteMcpLimits } from '../../domain/mcp-server-rules.ts';
import { boundCallResult, type BoundedCallResult } from '../../domain/remote-tool-result.ts';
import { DomainError } from '../../kernel/errors.ts';
import type { Database } from '../../ports/database.ts';
import type { AddressCheck, RemoteMcpClient, RemoteMcpTarget, RemoteOutcome } from '../../ports/remote-mcp.ts';
import { recordAudit } from '../audit-log.ts';
import type { Caller } from '../caller.ts';
import { transaction } from '../sql.ts';
import type { OutboundUrlGuard } from '../webhooks/outbound-url-guard.ts';
import type { McpServerRow, McpServerService } from './mcp-servers.ts';

export interface RemoteToolView {
  server: string;
  server_id: string;
  name: string;
  prefixed_name: string;
  title?: string;
  description: string;
  input_schema: Record<string, unknown>;
  output_schema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export interface RemoteToolList {
  tools: RemoteToolView[];
  skipped: { server: string; server_id: string; reason: string }[];
}

const remoteFailed = (message: string) => new DomainError('bad_gateway', message);

/** `work`, or the deadline's message when the signal fires first (a hung DNS lookup must not hold the answer). */
function beforeDeadline<T>(work: Promise<RemoteOutcome<T>>, signal: AbortSignal, message: string): Promise<RemoteOutcome<T>> {
  if (signal.aborted) return Promise.resolve({ ok: false, error: message });
  return new Promise((resolve) => {
    const onAbort = () => resolve({ ok: false, error: message });
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (outcome) => resolve(outcome),
      (error: unknown) => resolve({ ok: false, error: `the exchange failed: ${String(error).slice(0, 300)}` }),
    ).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const seconds = (millis: number) => `${Math.round(millis / 100) / 10} s`;

export function createRemoteToolService(deps: {
  db: Database;
  servers: McpServerService;
  guard: OutboundUrlGuard;
  /** Absent: the service has no MCP client, and every server is reported as failing with that reason. */
  client: RemoteMcpClient | null;
  limits: RemoteMcpLimits;
}) {
  const { limits } = deps;

  const check: AddressCheck = async (url) => {
    const verdict = await deps.guard.check(url.href);
    if (!verdict.ok) return { ok: false, reason: verdict.reason.replace('webhooks may target it', 'the service may reach it') };
    return { ok: true, address: formatIp(verdict.addresses[0]!) };
  };

  async function targetOf(row: McpServerRow, signal: AbortSignal): Promise<RemoteOutcome<RemoteMcpTarget>> {
    let headers: Record<string, string>;
    try {
      headers = await deps.servers.openHeaders(row);
    } catch {
      return { ok: false, error: 'its headers cannot be decrypted (SECRET_KEY changed since they were set?): set them again' };
    }
    return {
      ok: true,
      value: { url: new URL(row.url), headers, check, signal, handshakeMillis: limits.handshakeMillis, maxResponseBytes: limits.maxResponseBytes },
    };
  }

  async function toolsOf(row: McpServerRow): Promise<RemoteOutcome<RemoteToolView[]>> {
    const client = deps.client;
    if (!client) return { ok: false, error: 'this service has no remote MCP client' };
    const signal = AbortSignal.timeout(limits.listMillis);
    return beforeDeadline(
      (async (): Promise<RemoteOutcome<RemoteToolView[]>> => {
        const target = await targetOf(row, signal);
        if (!target.ok) return target;
        const outcome = await client.listTools(target.value, maxToolPages);
        if (!outcome.ok) return outcome;
        const tools: RemoteToolView[] = [];
        for (const tool of outcome.value) {
          const prefixed = prefixedToolName(row.name, tool.name);
          // A name no MCP client accepts (or too long with the prefix) cannot be offered; the rest still can.
          if (!prefixed || tools.length >= maxToolsPerServer) continue;
          tools.push({
            server: row.name,
            server_id: row.id,
            name: tool.name,
            prefixed_name: prefixed,
            ...(tool.title ? { title: tool.title } : {}),
            description: tool.description ?? '',
            input_schema: tool.inputSchema,
            ...(tool.outputSchema ? { output_schema: tool.outputSchema } : {}),
            ...(tool.annotations ? { annotations: tool.annotations } : {}),
          });
        }
        return { ok: true, value: tools };
      })(),
      signal,
      `no answer within ${seconds(limits.listMillis)}`,
    );
  }

  return {
    /** The tools of every server of the caller's workspace; a server that fails is listed in `skipped` with why. */
    async listTools(caller: Caller): Promise<RemoteToolList> {
      const rows = await deps.servers.all(caller);
      const outcomes = await Promise.all(rows.map((row) => toolsOf(row)));
      const answer: RemoteToolList = { tools: [], skipped: [] };
      outcomes.forEach((outcome, index) => {
        const row = rows[index]!;
        if (outcome.ok) answer.tools.push(...outcome.value);
        else answer.skipped.push({ server: row.name, server_id: row.id, reason: outcome.error });
      });
      return answer;
    },

    /** Calls `tool` on the server `id`: the result as received (cut past the byte budget), or 502 with why it failed. */
    async callTool(caller: Caller, id: string, tool: string, args: Record<string, unknown>): Promise<BoundedCallResult> {
      const row = await deps.servers.get(caller, id);
      const client = deps.client;
      if (!client) throw remoteFailed(`MCP server ${row.name}: this service has no remote MCP client`);
      const signal = AbortSignal.timeout(limits.callMillis);
      const outcome = await beforeDeadline(
        (async () => {
          const target = await targetOf(row, signal);
          return target.ok ? client.callTool(target.value, tool, args) : target;
        })(),
        signal,
        `no answer within ${seconds(limits.callMillis)}`,
      );
      // Who called what, never the arguments (they may hold anything); the outcome, for the admin's record.
      await transaction(deps.db, async (tx) => {
        recordAudit(tx.em, caller, 'mcp_server.tool_called', { type: 'mcp_server', id: row.id, label: row.name }, {
          tool,
          outcome: outcome.ok ? (outcome.value.isError ? 'tool_error' : 'ok') : 'failed',
        });
      });
      if (!outcome.ok) throw remoteFailed(`MCP server ${row.name}: ${outcome.error}`);
      return boundCallResult(outcome.value, limits.maxResultBytes);
    },
  };
}

export type RemoteToolService = ReturnType<typeof createRemoteToolService>;
