/**
 * Remote MCP servers: the attach form's checks and body, and a server's connection as GET /mcp-servers/tools tells it.
 * Exports: HeaderRow, ServerDraft, emptyServerDraft, newHeaderRow(), validateServer(draft), bodyOfServer(draft),
 * connectionOf(tools, serverId), RESERVED_HEADERS.
 */

export interface HeaderRow {
  key: number;
  name: string;
  /** Write-only: sent once, stored encrypted, never shown again. */
  value: string;
}

export interface ServerDraft {
  name: string;
  url: string;
  headers: HeaderRow[];
}

let nextKey = 1;
export const newHeaderRow = (name = '', value = ''): HeaderRow => ({ key: nextKey++, name, value });
export const emptyServerDraft = (): ServerDraft => ({ name: '', url: '', headers: [] });

/** Headers the MCP transport sets itself (the API refuses them). */
export const RESERVED_HEADERS = ['content-type', 'content-length', 'accept', 'mcp-session-id', 'mcp-protocol-version', 'host', 'connection', 'transfer-encoding'];

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Field errors: `name`, `url`, `headers[i].name`, `headers[i].value`, `headers`. */
export type ServerErrors = Record<string, string>;

export function validateServer(draft: ServerDraft): ServerErrors {
  const errors: ServerErrors = {};
  const name = draft.name.trim();
  if (!name) errors.name = 'Enter a name: it prefixes the server’s tools (jira__search).';
  else if (!/^[a-z][a-z0-9_-]{0,31}$/.test(name)) errors.name = 'A lower-case letter, then up to 31 lower-case letters, digits, _ or -.';
  else if (name.includes('__')) errors.name = 'A name cannot hold "__" (it separates the server from the tool).';
  const url = draft.url.trim();
  if (!url) errors.url = 'Enter the server’s streamable-HTTP URL.';
  else {
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') errors.url = 'Only http(s) URLs.';
      else if (parsed.username || parsed.password) errors.url = 'Put credentials in a header, not in the URL.';
    } catch {
      errors.url = 'This is not a URL: write it in full, with https://.';
    }
  }
  const rows = draft.headers.filter((row) => row.name.trim() || row.value);
  if (rows.length > 20) errors.headers = 'At most 20 headers.';
  const seen = new Set<string>();
  draft.headers.forEach((row, index) => {
    const header = row.name.trim().toLowerCase();
    if (!header && !row.value) return;
    if (!header) errors[`headers[${index}].name`] = 'Enter the header’s name.';
    else if (!TOKEN.test(header)) errors[`headers[${index}].name`] = 'Not an HTTP header name.';
    else if (RESERVED_HEADERS.includes(header)) errors[`headers[${index}].name`] = `${header} is set by the MCP transport itself.`;
    else if (seen.has(header)) errors[`headers[${index}].name`] = `${header} is given twice.`;
    seen.add(header);
    if (!row.value) errors[`headers[${index}].value`] = 'Enter the value.';
    else if (!/^[\x20-\x7e]*$/.test(row.value) || row.value.length > 4096) errors[`headers[${index}].value`] = 'Visible ASCII, at most 4096 characters.';
  });
  return errors;
}

export function bodyOfServer(draft: ServerDraft): { name: string; url: string; headers?: Record<string, string> } {
  const headers: Record<string, string> = {};
  for (const row of draft.headers) if (row.name.trim()) headers[row.name.trim().toLowerCase()] = row.value;
  return { name: draft.name.trim(), url: draft.url.trim(), ...(Object.keys(headers).length ? { headers } : {}) };
}

export interface ToolList {
  tools: { server_id: string; prefixed_name: string }[];
  skipped: { server_id: string; reason: string }[];
}

export type Connection = { state: 'unknown' } | { state: 'ok'; tools: number } | { state: 'failed'; reason: string };

/** What the last tool listing says of one server. */
export function connectionOf(list: ToolList | undefined, serverId: string): Connection {
  if (!list) return { state: 'unknown' };
  const skipped = list.skipped.find((s) => s.server_id === serverId);
  if (skipped) return { state: 'failed', reason: skipped.reason };
  return { state: 'ok', tools: list.tools.filter((tool) => tool.server_id === serverId).length };
}

export function connectionText(connection: Connection): string {
  if (connection.state === 'unknown') return 'not tested yet';
  if (connection.state === 'failed') return `failed: ${connection.reason}`;
  return `connected, ${connection.tools} ${connection.tools === 1 ? 'tool' : 'tools'}`;
}
