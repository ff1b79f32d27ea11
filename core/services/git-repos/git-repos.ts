/**
 * Git repositories of a workspace: connect (URL, branch, path, optional credentials sealed with SECRET_KEY), list,
 * read, change, disconnect, and ask for a sync, which the sync worker runs in the background. The URL must pass the
 * same outbound guard as webhooks (WEBHOOK_ALLOW_HOSTS). Workspace-scoped and audit-logged; credentials never leave.
 */
import {
  checkBranch,
  checkRepoPath,
  maxGitReposPerWorkspace,
  maxUrlLength,
} from '../../domain/git-repo-rules.ts';
import type { SecretBox } from '../../domain/secret-box.ts';
import { badRequest, notFound } from '../../kernel/errors.ts';
import type { Database } from '../../ports/database.ts';
import { recordAudit } from '../audit-log.ts';
import type { Caller } from '../caller.ts';
import { sqlOf, type Sql, transaction } from '../sql.ts';
import type { OutboundUrlGuard } from '../webhooks/outbound-url-guard.ts';
import { isUuid, lockWorkspace } from '../workspace-scope.ts';

export type SyncStatus = 'never' | 'queued' | 'syncing' | 'synced' | 'failed';

export interface SyncResult {
  files: number;
  created: number;
  updated: number;
  unchanged: number;
  archived: number;
  skipped: { path: string; reason: string }[];
}

export interface GitRepoRow {
  id: string;
  workspace_id: string;
  url: string;
  branch: string;
  path: string;
  credentials_box: string | null;
  sync_status: SyncStatus;
  sync_requested_at: Date | string | null;
  sync_again: boolean;
  lease_id: string | null;
  lease_until: Date | string | null;
  last_commit: string | null;
  last_synced_at: Date | string | null;
  last_error: string | null;
  last_result: SyncResult | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface Credentials {
  username?: string;
  password: string;
}

export interface GitRepoInput {
  url?: string;
  branch?: string;
  path?: string;
  credentials?: Credentials | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function toGitRepoView(row: GitRepoRow) {
  return {
    id: row.id,
    url: row.url,
    branch: row.branch,
    path: row.path,
    has_credentials: row.credentials_box !== null,
    sync_status: row.sync_status,
    last_commit: row.last_commit,
    last_synced_at: iso(row.last_synced_at),
    last_error: row.last_error,
    last_result: typeof row.last_result === 'string' ? (JSON.parse(row.last_result) as SyncResult) : row.last_result,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

interface Page {
  limit: number;
  after: { createdAt: Date; id: string } | null;
}

const maxCredentialLength = 4096;

function checkCredentials(value: Credentials | null | undefined): Credentials | null | undefined {
  if (value === undefined || value === null) return value;
  const username = (value.username ?? '').trim() || 'git';
  if (!value.password) throw badRequest('credentials.password must not be empty (a password or an access token)', { field: 'credentials.password' });
  if (username.length > 256 || value.password.length > maxCredentialLength) {
    throw badRequest(`credentials are too long (user name 256, password ${maxCredentialLength} characters at most)`, { field: 'credentials' });
  }
  if (username.includes(':')) throw badRequest('credentials.username must not contain ":"', { field: 'credentials.username' });
  return { username, password: value.password };
}

export function createGitRepoService(deps: {
  db: Database;
  guard: OutboundUrlGuard;
  secrets: SecretBox;
  /** A sync was queued (after the commit): the worker should look now. */
  queued(): void;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  async function checkedUrl(value: string): Promise<string> {
    const url = value.trim();
    if (!url) throw badRequest('url must not be blank', { field: 'url' });
    if (url.length > maxUrlLength) throw badRequest(`url may be at most ${maxUrlLength} characters`, { field: 'url' });
    if (/^[\w.-]+@[\w.-]+:/.test(url) || url.startsWith('ssh:') || url.startsWith('git:')) {
      throw badRequest('url must be an http(s) URL of the repository (ssh and git:// are not supported)', { field: 'url' });
    }
    const verdict = await deps.guard.check(url);
    if (!verdict.ok) {
      const reason = verdict.reason.replace('webhooks may target it', 'the service may reach it');
      throw badRequest(verdict.reason.includes('user name or password') ? 'url must not carry a user name or password: send them as credentials' : reason, {
        field: 'url',
      });
    }
    return verdict.url.href;
  }

  async function find(sql: Sql, caller: Caller, id: string, lock = false): Promise<GitRepoRow> {
    if (!isUuid(id)) throw notFound('git repository');
    const [row] = await sql.all<GitRepoRow>(`select * from git_repos where id = ? and workspace_id = ?${lock ? ' for update' : ''}`, [
      id.toLowerCase(),
      caller.workspace.workspaceId,
    ]);
    if (!row) throw notFound('git repository');
    return row;
  }

  const seal = async (credentials: Credentials | null | undefined) =>
    credentials ? deps.secrets.seal(JSON.stringify(credentials)) : credentials;

  return {
    async list(caller: Caller, page: Page) {
      const after = page.after;
      const rows = await sqlOf(deps.db).all<GitRepoRow>(
        `select * from git_repos where workspace_id = ?${after ? ' and (created_at, id) < (?, ?)' : ''}
         order by created_at desc, id desc limit ?`,
        [caller.workspace.workspaceId, ...(after ? [after.createdAt, after.id] : []), page.limit + 1],
      );
      return rows.map((row) => ({ ...row, createdAt: new Date(row.created_at) }));
    },

    get: (caller: Caller, id: string) => find(sqlOf(deps.db), caller, id),

    /** Connects a repository and queues its first sync. */
    async create(caller: Caller, input: GitRepoInput & { url: string }): Promise<GitRepoRow> {
      const branch = checkBranch(input.branch ?? 'main');
      const path = checkRepoPath(input.path ?? '');
      const credentials = checkCredentials(input.credentials);
      const url = await checkedUrl(input.url);
      const sealed = (await seal(credentials)) ?? null;
      const workspaceId = caller.workspace.workspaceId;
      const row = await transaction(deps.db, async (tx) => {
        await lockWorkspace(tx.em, workspaceId);
        const [{ count }] = (await tx.all<{ count: number }>('select count(*)::int as count from git_repos where workspace_id = ?', [workspaceId])) as [
          { count: number },
        ];
        if (count >= maxGitReposPerWorkspace) throw badRequest(`a workspace may connect at most ${maxGitReposPerWorkspace} git repositories`);
        const at = now();
        const id = crypto.randomUUID();
        const [created] = await tx.all<GitRepoRow>(
          `insert into git_repos (id, workspace_id, url, branch, path, credentials_box, sync_status, sync_requested_at, created_at, updated_at)
           values (?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?) returning *`,
          [id, workspaceId, url, branch, path, sealed, at, at, at],
        );
        recordAudit(tx.em, caller, 'git_repo.created', { type: 'git_repo', id, label: url }, { branch, path, credentials: sealed !== null });
        return created!;
      });
      deps.queued();
      return row;
    },

    async update(caller: Caller, id: string, input: GitRepoInput): Promise<GitRepoRow> {
      const branch = input.branch === undefined ? undefined : checkBranch(input.branch);
      const path = input.path === undefined ? undefined : checkRepoPath(input.path);
      const credentials = checkCredentials(input.credentials);
      const url = input.url === undefined ? undefined : await checkedUrl(input.url);
      const sealed = await seal(credentials);
      return transaction(deps.db, async (tx) => {
        const current = await find(tx, caller, id, true);
        const [updated] = await tx.all<GitRepoRow>(
          `update git_repos set url = ?, branch = ?, path = ?, credentials_box = ?, updated_at = ? where id = ? returning *`,
          [url ?? current.url, branch ?? current.branch, path ?? current.path, sealed === undefined ? current.credentials_box : sealed, now(), current.id],
        );
        const changed = Object.keys(input).filter((key) => input[key as keyof GitRepoInput] !== undefined);
        recordAudit(tx.em, caller, 'git_repo.updated', { type: 'git_repo', id: current.id, label: updated!.url }, { changed });
        return updated!;
      });
    },

    /** Disconnects the repository; its tests stay (runs refer to them) as ordinary tests. */
    async remove(caller: Caller, id: string): Promise<void> {
      await transaction(deps.db, async (tx) => {
        const current = await find(tx, caller, id, true);
        await tx.all('delete from git_repos where id = ?', [current.id]);
        recordAudit(tx.em, caller, 'git_repo.deleted', { type: 'git_repo', id: current.id, label: current.url });
      });
    },

    /** Queues a sync; during one, another follows it (the request may carry newer commits). */
    async requestSync(caller: Caller, id: string): Promise<GitRepoRow> {
      const row = await transaction(deps.db, async (tx) => {
        const current = await find(tx, caller, id, true);
        const at = now();
        const [updated] =
          current.sync_status === 'syncing'
            ? await tx.all<GitRepoRow>('update git_repos set sync_again = true where id = ? returning *', [current.id])
            : await tx.all<GitRepoRow>(
                `update git_repos set sync_status = 'queued', sync_requested_at = coalesce(case when sync_status = 'queued' then sync_requested_at end, ?)
                 where id = ? returning *`,
                [at, current.id],
              );
        recordAudit(tx.em, caller, 'git_repo.sync_requested', { type: 'git_repo', id: current.id, label: current.url });
        return updated!;
      });
      deps.queued();
      return row;
    },
  };
}

export type GitRepoService = ReturnType<typeof createGitRepoService>;
