/**
 * Rules for remote MCP servers: a name that can prefix a tool name (`<server>__<tool>`), the headers an admin may set
 * (names that do not clash with the transport's own, values a HTTP header can carry), and the limits of a workspace,
 * a tool list and a call.
 */
import { badRequest } from '../kernel/errors.ts';

/** A slug: the server's tools are offered as `<name>__<tool>`, so it must fit a tool name and leave room for one. */
export const serverNamePattern = '^[a-z][a-z0-9_-]{0,31}$';
const serverNameRegex = new RegExp(serverNamePattern);
export const maxServerNameLength = 32;
/** `__` separates server and tool in a prefixed name: a server name without it splits at the first one. */
export const toolPrefixSeparator = '__';

export const maxMcpServersPerWorkspace = 10;
export const maxMcpUrlLength = 2048;
export const maxHeadersPerServer = 20;
export const maxHeaderNameLength = 64;
export const maxHeaderValueLength = 4096;

/** RFC 9110 token characters: what a field name may hold. */
export const headerNamePattern = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$";
const headerNameRegex = new RegExp(headerNamePattern);
/** Visible ASCII, spaces and tabs: a value fetch can send as it is (no line breaks, no bytes outside Latin-1 to mangle). */
const headerValueRegex = /^[\t\x20-\x7e]*$/;

/**
 * Fields the MCP transport or HTTP itself sets: an admin's value would break the exchange (content-type, accept,
 * the session and protocol headers) or the connection (framing, host, upgrade).
 */
export const reservedHeaderNames: readonly string[] = [
  'accept',
  'accept-encoding',
  'connection',
  'content-encoding',
  'content-length',
  'content-type',
  'expect',
  'host',
  'keep-alive',
  'last-event-id',
  'mcp-protocol-version',
  'mcp-session-id',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

/** Per tool list: pages asked of one server, and tools kept of it (a model does badly with hundreds anyway). */
export const maxToolPages = 5;
export const maxToolsPerServer = 100;
/** MCP tool names (2025-06-18 spec guidance): 1 to 128 of these characters, the prefix included. */
export const toolNamePattern = '^[A-Za-z0-9_.-]{1,128}$';
const toolNameRegex = new RegExp(toolNamePattern);

export interface RemoteMcpLimits {
  /** How long one server may take to list its tools (connect, handshake, list); past it the server is skipped. */
  listMillis: number;
  /** How long a call's connect and handshake may take (a dead address fails fast, not at the call's deadline). */
  handshakeMillis: number;
  /** How long a whole call may take. */
  callMillis: number;
  /** Bytes of a call's result passed on; a larger one is cut, with a note. */
  maxResultBytes: number;
  /** Bytes of one HTTP answer read at most; a larger answer fails the exchange. */
  maxResponseBytes: number;
}

export const defaultRemoteMcpLimits: RemoteMcpLimits = {
  listMillis: 3_000,
  handshakeMillis: 3_000,
  callMillis: 30_000,
  maxResultBytes: 1024 * 1024,
  maxResponseBytes: 4 * 1024 * 1024,
};

export function checkServerName(value: string): string {
  const name = value.trim();
  if (!serverNameRegex.test(name)) {
    throw badRequest(
      `name "${name.slice(0, 40)}" is not a server name: a lower-case letter, then up to 31 lower-case letters, digits, _ or - (it prefixes the server's tools)`,
      { field: 'name' },
    );
  }
  if (name.includes(toolPrefixSeparator)) {
    throw badRequest(`name must not contain "${toolPrefixSeparator}": it separates the server from the tool in a prefixed tool name`, { field: 'name' });
  }
  return name;
}

/** Header names lower-cased (HTTP compares them without case), values checked; null values (PATCH: remove) kept as null. */
export function checkHeaders<V extends string | null>(headers: Record<string, V>): Record<string, V> {
  const entries = Object.entries(headers);
  if (entries.length > maxHeadersPerServer) throw badRequest(`a server takes at most ${maxHeadersPerServer} headers`, { field: 'headers' });
  const checked: Record<string, V> = {};
  for (const [rawName, value] of entries) {
    const name = rawName.toLowerCase();
    if (!headerNameRegex.test(name)) {
      throw badRequest(`header name "${rawName.slice(0, 80)}" is not a HTTP field name of at most ${maxHeaderNameLength} characters`, { field: 'headers' });
    }
    if (reservedHeaderNames.includes(name)) {
      throw badRequest(`header ${name} is set by the MCP transport itself and cannot be configured`, { field: 'headers' });
    }
    if (Object.hasOwn(checked, name)) throw badRequest(`header ${name} is given twice (names are compared without case)`, { field: 'headers' });
    if (value !== null) {
      if (value.length === 0) throw badRequest(`header ${name} has an empty value`, { field: 'headers' });
      if (value.length > maxHeaderValueLength) throw badRequest(`header ${name} may be at most ${maxHeaderValueLength} characters`, { field: 'headers' });
      if (!headerValueRegex.test(value)) {
        throw badRequest(`header ${name} holds a character a HTTP header cannot carry (only visible ASCII, spaces and tabs)`, { field: 'headers' });
      }
    }
    checked[name] = value;
  }
  return checked;
}

/** The name a remote tool is offered under, or null when the remote name cannot make a valid prefixed one. */
export function prefixedToolName(server: string, tool: string): string | null {
  const name = `${server}${toolPrefixSeparator}${tool}`;
  return toolNameRegex.test(tool) && toolNameRegex.test(name) ? name : null;
}
