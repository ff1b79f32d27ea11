/**
 * The remote MCP port: lists the tools of, or calls one tool on, an admin's streamable-HTTP MCP server, every HTTP
 * request of the exchange (the first, later ones, each redirect) connecting only to an address the caller's check
 * allowed for that very URL. Failures are values: the proxy reports them, it does not crash on them.
 */

export type AddressCheck = (url: URL) => Promise<{ ok: true; address: string } | { ok: false; reason: string }>;

export interface RemoteMcpTarget {
  url: URL;
  /** The admin's headers, sent with every request to the server's origin (never to another). */
  headers: Readonly<Record<string, string>>;
  /** Asked before each HTTP request: the checked address to connect to, or why not (the outbound URL guard). */
  check: AddressCheck;
  /** Ends the whole exchange: the caller's deadline. */
  signal: AbortSignal;
  /** The connection and the initialize handshake must be done within this. */
  handshakeMillis: number;
  /** Bytes of one HTTP answer read at most; a larger answer fails the exchange. */
  maxResponseBytes: number;
}

/** A tool as the server describes it (MCP `Tool`), JSON as received. */
export interface RemoteTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** MCP `CallToolResult`, JSON as received. */
export interface RemoteCallResult {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export type RemoteOutcome<T> = { ok: true; value: T } | { ok: false; error: string };

export interface RemoteMcpClient {
  /** Every tool of the server, following its pages up to `maxPages`. */
  listTools(target: RemoteMcpTarget, maxPages: number): Promise<RemoteOutcome<RemoteTool[]>>;
  callTool(target: RemoteMcpTarget, tool: string, args: Record<string, unknown>): Promise<RemoteOutcome<RemoteCallResult>>;
}
