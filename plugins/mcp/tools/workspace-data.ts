/** list_git_repos, sync_git_repo, list_env_vars and audit_log: the workspace's repositories, variables and activity. */
import { type Static, Type } from '@sinclair/typebox';
import { defineTool } from '../tool-registry.ts';
import { newestFirst, Nullable, pageArgs, pageOf } from '../paging.ts';

const GitRepo = Type.Object({
  id: Type.String(),
  url: Type.String(),
  branch: Type.String(),
  path: Type.String({ description: "the directory synced ('' = the whole repository)" }),
  has_credentials: Type.Boolean({ description: 'credentials are stored (never shown)' }),
  sync_status: Type.String({ description: 'never, queued, syncing, synced or failed' }),
  last_commit: Nullable(Type.String()),
  last_synced_at: Nullable(Type.String()),
  last_error: Nullable(Type.String()),
  last_result: Nullable(
    Type.Object({
      files: Type.Integer(),
      created: Type.Integer(),
      updated: Type.Integer(),
      unchanged: Type.Integer(),
      archived: Type.Integer(),
      skipped: Type.Array(Type.Object({ path: Type.String(), reason: Type.String() })),
    }),
  ),
  created_at: Type.String(),
  updated_at: Type.String(),
});
type GitRepoView = Static<typeof GitRepo>;

export const listGitRepos = defineTool({
  name: 'list_git_repos',
  title: 'List git repositories',
  description:
    'Git repositories connected to the workspace, whose test files become tests: URL, branch, path, sync_status (never, queued, syncing, ' +
    `synced, failed), the last synced commit and time, the last error and what the last sync created, updated or skipped. ${newestFirst}`,
  input: Type.Object(pageArgs, { additionalProperties: false }),
  output: pageOf(GitRepo),
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ limit, cursor }, { rest }) => rest.page<GitRepoView>('/git-repos', { limit, cursor }),
});

export const syncGitRepo = defineTool({
  name: 'sync_git_repo',
  title: 'Sync a git repository',
  description:
    'Queues a sync of a connected repository (a background job): its test files become tests or update them. Returns the repository with ' +
    'sync_status queued; list_git_repos shows the outcome. Needs manage_tests (tests:write).',
  input: Type.Object({ repo_id: Type.String({ minLength: 1, description: 'the repository id (list_git_repos)' }) }, { additionalProperties: false }),
  output: Type.Object({ repo: GitRepo }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  run: async ({ repo_id }, { rest }) => ({ repo: await rest.send<GitRepoView>('POST', `/git-repos/${encodeURIComponent(repo_id)}/sync`) }),
});

const Actor = Type.Object({
  type: Type.String({ description: 'user or token' }),
  id: Nullable(Type.String()),
  label: Nullable(Type.String()),
  user_id: Nullable(Type.String()),
});

const EnvVar = Type.Object({
  key: Type.String(),
  value: Type.Literal('***', { description: 'always masked: values never leave the service' }),
  created_at: Type.String(),
  updated_at: Type.String(),
  updated_by: Actor,
});

interface EnvVarAnswer {
  key: string;
  created_at: string;
  updated_at: string;
  updated_by: Static<typeof Actor>;
}

export const listEnvVars = defineTool({
  name: 'list_env_vars',
  title: 'List environment variables',
  description:
    "The workspace's environment variables, which every run's tool receives in its environment: keys, when and by whom they were set. " +
    'Values are always masked (***): the service never returns them, and a value printed in a run log shows as ***.',
  input: Type.Object(pageArgs, { additionalProperties: false }),
  output: pageOf(EnvVar),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run({ limit, cursor }, { rest }) {
    const page = await rest.page<EnvVarAnswer>('/env-vars', { limit, cursor });
    // Only the listed fields pass: should REST ever answer a value, it stays here.
    const items = page.items.map((each) => ({ key: each.key, value: '***' as const, created_at: each.created_at, updated_at: each.updated_at, updated_by: each.updated_by }));
    return { items, next_cursor: page.next_cursor };
  },
});

const AuditEntry = Type.Object({
  id: Type.String(),
  action: Type.String({ description: 'e.g. test.created, run.cancelled, api_token.created' }),
  actor: Actor,
  target: Type.Object({ type: Type.String(), id: Nullable(Type.String()), label: Nullable(Type.String()) }),
  details: Type.Record(Type.String(), Type.Unknown()),
  time: Type.String(),
});

export const auditLog = defineTool({
  name: 'audit_log',
  title: 'Audit log',
  description: `Activity in the workspace: action, actor (user or API token), target, details and time. ${newestFirst} Needs the permission view_audit_log (owners and admins by default) and a token without scopes.`,
  input: Type.Object(pageArgs, { additionalProperties: false }),
  output: pageOf(AuditEntry),
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ limit, cursor }, { rest }) => rest.page<Static<typeof AuditEntry>>('/audit-log', { limit, cursor }),
});
