/**
 * Remote MCP servers of a workspace: attach (name, streamable-HTTP URL, optional headers sealed with SECRET_KEY), list,
 * read, change, detach. The URL must pass the outbound guard (WEBHOOK_ALLOW_HOSTS) like webhooks and git
 * repositories. Workspace-scoped and audit-logged; header values never leave, not even into the audit log.
 */
import { checkHeaders, checkServerName, maxMcpServersPerWorkspace, maxMcpUrlLength } from '../../domain/mcp-server-rules.ts';
import type { SecretBox } from '../../domain/secret-box.ts';
import { badRequest, conflict, notFound } from '../../kernel/errors.ts';
import type { Database } from '../../ports/database.ts';
import { recordAudit } from '../audit-log.ts';
import type { Caller } from '../caller.ts';
import { isUniqueViolation, sqlOf, type Sql, transaction } from '../sql.ts';
import type { OutboundUrlGuard } from '../webhooks/outbound-url-guard.ts';
import { isUuid, lockWorkspace } from '../workspace-scope.ts';

export interface McpServerRow {
  id: string;
  workspace_id: string;
  name: string;
  url: string;
  /** Lower-case, sorted; in clear so lists need no decryption. */
  header_names: string[];
  /** The headers as a sealed JSON object, or null when there are none. */
  headers_box: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface McpServerInput {
  name?: string;
  url?: string;
  /** Create: the headers. Update: merged into the stored ones, a null value removes that header. */
  headers?: Record<string, string | null>;
}

const iso = (value: Date | string) => new Date(value).toISOString();

export function toMcpServerView(row: McpServerRow) {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    header_names: row.header_names,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

interface Page {
  limit: number;
  after: { createdAt: Date; id: string } | null;
}

const duplicateName = (name: string) => conflict(`the workspace already has an MCP server named ${name}`);

export function createMcpServerService(deps: { db: Database; guard: OutboundUrlGuard; secrets: SecretBox; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());

  async function checkedUrl(value: string): Promise<string> {
    const url = value.trim();
    if (!url) throw badRequest('url must not be blank', { field: 'url' });
    if (url.length > maxMcpUrlLength) throw badRequest(`url may be at most ${maxMcpUrlLength} characters`, { field: 'url' });
    const verdict = await deps.guard.check(url);
    if (!verdict.ok) {
      const reason = verdict.reason.includes('user name or password')
        ? 'url must not carry a user name or password: send credentials as headers'
        : verdict.reason.replace('webhooks may target it', 'the service may reach it');
      throw badRequest(reason, { field: 'url' });
    }
    return verdict.url.href;
  }

  async function find(sql: Sql, caller: Caller, id: string, lock = false): Promise<McpServerRow> {
    // A malformed id cannot exist; 404 (not 400) keeps ids opaque, as everywhere.
    if (!isUuid(id)) throw notFound('MCP server');
    const [row] = await sql.all<McpServerRow>(`select * from mcp_servers where id = ? and workspace_id = ?${lock ? ' for update' : ''}`, [
      id.toLowerCase(),
      caller.workspace.workspaceId,
    ]);
    if (!row) throw notFound('MCP server');
    return row;
  }

  async function nameTaken(sql: Sql, workspaceId: string, name: string, except: string | null): Promise<boolean> {
    const rows = await sql.all('select id from mcp_servers where workspace_id = ? and name = ? and id <> ?', [
      workspaceId,
      name,
      except ?? '00000000-0000-0000-0000-000000000000',
    ]);
    return rows.length > 0;
  }

  const seal = async (headers: Record<string, string>) => (Object.keys(headers).length ? deps.secrets.seal(JSON.stringify(headers)) : null);

  /** The stored headers in clear (only the proxy needs them, to call the server). */
  async function openHeaders(row: McpServerRow): Promise<Record<string, string>> {
    return row.headers_box ? (JSON.parse(await deps.secrets.open(row.headers_box)) as Record<string, string>) : {};
  }

  /** Unique names race only between two writers of one workspace; the index has the last word. */
  async function uniqueName<T>(name: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName(name);
      throw error;
    }
  }

  return {
    openHeaders,

    async list(caller: Caller, page: Page) {
      const after = page.after;
      const rows = await sqlOf(deps.db).all<McpServerRow>(
        `select * from mcp_servers where workspace_id = ?${after ? ' and (created_at, id) < (?, ?)' : ''}
         order by created_at desc, id desc limit ?`,
        [caller.workspace.workspaceId, ...(after ? [after.createdAt, after.id] : []), page.limit + 1],
      );
      return rows.map((row) => ({ ...row, createdAt: new Date(row.created_at) }));
    },

    /** Every server of the workspace, by name (the proxy asks them all). */
    all: (caller: Caller) =>
      sqlOf(deps.db).all<McpServerRow>('select * from mcp_servers where workspace_id = ? order by name', [caller.workspace.workspaceId]),

    get: (caller: Caller, id: string) => find(sqlOf(deps.db), caller, id),

    async create(caller: Caller, input: { name: string; url: string; headers?: Record<string, string> }): Promise<McpServerRow> {
      const name = checkServerName(input.name);
      const headers = checkHeaders(input.headers ?? {});
      const url = await checkedUrl(input.url);
      const sealed = await seal(headers);
      const headerNames = Object.keys(headers).sort();
      const workspaceId = caller.workspace.workspaceId;
      return uniqueName(name, () =>
        transaction(deps.db, async (tx) => {
          // Under the workspace's row lock, so concurrent creates cannot all count one below the limit.
          await lockWorkspace(tx.em, workspaceId);
          const [{ count }] = (await tx.all<{ count: number }>('select count(*)::int as count from mcp_servers where workspace_id = ?', [
            workspaceId,
          ])) as [{ count: number }];
          if (count >= maxMcpServersPerWorkspace) {
            throw badRequest(`a workspace may attach at most ${maxMcpServersPerWorkspace} MCP servers; delete one first`);
          }
          if (await nameTaken(tx, workspaceId, name, null)) throw duplicateName(name);
          const at = now();
          const id = crypto.randomUUID();
          const [created] = await tx.all<McpServerRow>(
            `insert into mcp_servers (id, workspace_id, name, url, header_names, headers_box, created_at, updated_at)
             values (?, ?, ?, ?, ?::jsonb, ?, ?, ?) returning *`,
            [id, workspaceId, name, url, JSON.stringify(headerNames), sealed, at, at],
          );
          recordAudit(tx.em, caller, 'mcp_server.created', { type: 'mcp_server', id, label: name }, { url, header_names: headerNames });
          return created!;
        }),
      );
    },

    async update(caller: Caller, id: string, input: McpServerInput): Promise<McpServerRow> {
      const name = input.name === undefined ? undefined : checkServerName(input.name);
      const headerChanges = input.headers === undefined ? undefined : checkHeaders(input.headers);
      const url = input.url === undefined ? undefined : await checkedUrl(input.url);
      return uniqueName(name ?? '', () =>
        transaction(deps.db, async (tx) => {
          const current = await find(tx, caller, id, true);
          if (name !== undefined && name !== current.name && (await nameTaken(tx, current.workspace_id, name, current.id))) throw duplicateName(name);
          let headerNames = current.header_names;
          let sealed = current.headers_box;
          if (headerChanges) {
            const headers = await openHeaders(current);
            for (const [header, value] of Object.entries(headerChanges)) {
              if (value === null) delete headers[header];
              else headers[header] = value;
            }
            const after = checkHeaders(headers);
            headerNames = Object.keys(after).sort();
            sealed = await seal(after);
          }
          const [updated] = await tx.all<McpServerRow>(
            `update mcp_servers set name = ?, url = ?, header_names = ?::jsonb, headers_box = ?, updated_at = ? where id = ? returning *`,
            [name ?? current.name, url ?? current.url, JSON.stringify(headerNames), sealed, now(), current.id],
          );
          const changed = Object.keys(input).filter((key) => input[key as keyof McpServerInput] !== undefined);
          recordAudit(tx.em, caller, 'mcp_server.updated', { type: 'mcp_server', id: current.id, label: updated!.name }, {
            changed,
            ...(headerChanges ? { header_names: headerNames } : {}),
          });
          return updated!;
        }),
      );
    },

    async remove(caller: Caller, id: string): Promise<void> {
      await transaction(deps.db, async (tx) => {
        const current = await find(tx, caller, id, true);
        await tx.all('delete from mcp_servers where id = ?', [current.id]);
        recordAudit(tx.em, caller, 'mcp_server.deleted', { type: 'mcp_server', id: current.id, label: current.name }, { url: current.url });
      });
    },
  };
}

export type McpServerService = ReturnType<typeof createMcpServerService>;
