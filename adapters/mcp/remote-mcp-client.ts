/**
 * RemoteMcpClient on the MCP SDK's client (https://github.com/modelcontextprotocol/typescript-sdk): one short session
 * per list or call over streamable HTTP, every request through the pinned fetch (the outbound guard checks each URL,
 * the SDK follows only same-origin redirects, so the admin's headers never reach another origin), ended at once.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { RemoteCallResult, RemoteMcpClient, RemoteMcpTarget, RemoteOutcome, RemoteTool } from '../../core/ports/remote-mcp.ts';
import { AnswerTooLargeError, createPinnedFetch, RefusedAddressError } from '../net/pinned-fetch.ts';

/** The deadline is the target's signal; the SDK's own per-request timeout is only a backstop behind it. */
const backstopMillis = 10 * 60_000;

const networkCodes: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'the connection was closed',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate does not name the host',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
};

/** The error and its causes, outermost first. */
function* chain(error: unknown): Generator<unknown> {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) yield e;
}

const isTimeout = (e: unknown) =>
  (e instanceof McpError && e.code === ErrorCode.RequestTimeout) || ['AbortError', 'TimeoutError'].includes((e as { name?: string })?.name ?? '');

/** A failure in one line an admin can act on. */
function describe(error: unknown, target: RemoteMcpTarget, stage: 'handshake' | 'request'): string {
  const host = target.url.host;
  for (const e of chain(error)) {
    if (e instanceof RefusedAddressError || e instanceof AnswerTooLargeError) return e.message;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && networkCodes[code]) return `could not reach ${host}: ${networkCodes[code]}`;
    if (e instanceof StreamableHTTPError) {
      if (e.code === 401 || e.code === 403) return `${host} refused the request (HTTP ${e.code}): check the server's headers`;
      if (e.code === 404) return `no MCP endpoint at ${target.url.href} (HTTP 404)`;
      const redirect = /Redirect (?:to plain http )?(?:to )?(\S+)? ?not followed/.exec(e.message);
      if (redirect) return `${host} redirects to ${redirect[1] ?? 'another origin'}: not followed (only redirects within the origin are, so the headers stay there); use the final URL`;
      const text = e.message.replace(/^Streamable HTTP error: /, '').replace(/^Error POSTing to endpoint: /, '');
      return `${host} answered HTTP ${e.code ?? '?'}: ${text.slice(0, 200)}`;
    }
  }
  // The caller's deadline has its own message; the handshake's is ours to name.
  if (target.signal.aborted) return 'no answer in time';
  if (isTimeout(error)) return stage === 'handshake' ? `no MCP handshake within ${target.handshakeMillis / 1000} s` : 'no answer in time';
  if (error instanceof McpError) {
    if (error.code === ErrorCode.ConnectionClosed) return `${host} closed the connection`;
    return `the server answered with an error: ${error.message.slice(0, 300)}`;
  }
  const first = error as { name?: string; message?: string };
  if (first?.name === 'ZodError') return `${host} does not answer as an MCP server (its messages are not valid MCP)`;
  return `the exchange with ${host} failed: ${(first?.message ?? String(error)).slice(0, 300)}`;
}

/** Asks a stateful server to drop the session, then closes the client; the answer does not wait for it. */
function endInBackground(client: Client, transport: StreamableHTTPClientTransport): void {
  // The DELETE has until the caller's deadline (the pinned fetch aborts it then); the GET stream closes with the client.
  const ended = transport.sessionId ? transport.terminateSession().catch(() => {}) : Promise.resolve();
  void ended.finally(() => client.close().catch(() => {}));
}

async function inSession<T>(target: RemoteMcpTarget, work: (client: Client) => Promise<T>): Promise<RemoteOutcome<T>> {
  const transport = new StreamableHTTPClientTransport(target.url, {
    fetch: createPinnedFetch({ check: target.check, maxResponseBytes: target.maxResponseBytes, signal: target.signal }),
    requestInit: { headers: { ...target.headers } },
    // One try: a stream that breaks is a failure to report, not a reason to retry past the deadline.
    reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 },
  });
  const client = new Client({ name: 'loadplane', version: '0.1.0' }, { capabilities: {} });
  // Errors of background streams (the optional GET stream) surface through the requests that need them.
  client.onerror = () => {};
  let stage: 'handshake' | 'request' = 'handshake';
  try {
    const handshake = AbortSignal.any([target.signal, AbortSignal.timeout(target.handshakeMillis)]);
    await client.connect(transport, { signal: handshake, timeout: target.handshakeMillis });
    stage = 'request';
    const value = await work(client);
    endInBackground(client, transport);
    return { ok: true, value };
  } catch (error) {
    await client.close().catch(() => {});
    return { ok: false, error: describe(error, target, stage) };
  }
}

export function createSdkRemoteMcpClient(): RemoteMcpClient {
  return {
    listTools: (target, maxPages) =>
      inSession(target, async (client) => {
        const tools: RemoteTool[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < maxPages; page++) {
          const result = await client.listTools(cursor ? { cursor } : undefined, { signal: target.signal, timeout: backstopMillis });
          tools.push(...(result.tools as RemoteTool[]));
          cursor = result.nextCursor;
          if (!cursor) break;
        }
        return tools;
      }),

    callTool: (target, tool, args) =>
      inSession(target, async (client) => {
        const result = await client.callTool({ name: tool, arguments: args }, undefined, { signal: target.signal, timeout: backstopMillis });
        return result as RemoteCallResult;
      }),
  };
}
