/** /git-repos: repositories whose test files become tests, synced on demand in the background; credentials are write-only. */
import { Elysia, t } from 'elysia';
import { maxBranchLength, maxPathLength, maxSyncedFiles } from '../../domain/git-repo-rules.ts';
import { toGitRepoView } from '../../services/git-repos/git-repos.ts';
import { PageQuery, pagedList } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, documented, errorResponses, IdParams, Integer, Timestamp } from '../schemas/common.ts';

const SyncStatus = t.String({ description: 'never, queued, syncing, synced or failed' });

const GitRepoView = t.Object(
  {
    id: t.String(),
    url: t.String(),
    branch: t.String(),
    path: t.String({ description: "the directory synced ('' is the whole repository)" }),
    has_credentials: t.Boolean({ description: 'credentials are stored (never shown)' }),
    sync_status: SyncStatus,
    last_commit: t.Nullable(t.String({ description: 'the commit of the last successful sync' })),
    last_synced_at: t.Nullable(Timestamp),
    last_error: t.Nullable(t.String({ description: 'why the last sync failed, or what it left out' })),
    last_result: t.Nullable(
      t.Object({
        files: Integer(),
        created: Integer(),
        updated: Integer(),
        unchanged: Integer(),
        archived: Integer({ description: 'tests whose file is gone upstream' }),
        skipped: t.Array(t.Object({ path: t.String(), reason: t.String() })),
      }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'GitRepo' },
);

const Url = t.String({
  minLength: 1,
  maxLength: 2048,
  description: 'http(s) URL of the repository, without credentials; private, loopback and link-local hosts need WEBHOOK_ALLOW_HOSTS',
  ...documented({ format: 'uri', pattern: '^https?://[^\\s/?#@]+' }),
});
const Branch = t.String({ minLength: 1, maxLength: maxBranchLength, description: 'default main' });
const Path = t.String({
  maxLength: maxPathLength,
  description: `directory inside the repository whose test files are synced (default: the whole repository); at most ${maxSyncedFiles} test files`,
});
const Credentials = t.Nullable(
  t.Object(
    {
      username: t.Optional(t.String({ maxLength: 256, description: 'default git' })),
      password: t.String({ minLength: 1, maxLength: 4096, description: 'a password or an access token' }),
    },
    { additionalProperties: false, description: 'HTTP basic credentials, stored encrypted and never shown; null removes them' },
  ),
);

const GitRepoCreate = t.Object(
  { url: Url, branch: t.Optional(Branch), path: t.Optional(Path), credentials: t.Optional(Credentials) },
  { additionalProperties: false, title: 'GitRepoCreate' },
);
const GitRepoPatch = t.Object(
  { url: t.Optional(Url), branch: t.Optional(Branch), path: t.Optional(Path), credentials: t.Optional(Credentials) },
  { additionalProperties: false, title: 'GitRepoPatch' },
);

const NoInput = t.Optional(t.Object({}, { additionalProperties: false }));

export const gitRepoRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/git-repos', detail: { tags: ['Git repositories'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get('', (context) => pagedList(context, (page) => deps.gitRepos.list(context.caller, page), toGitRepoView), {
      query: PageQuery,
      response: { 200: t.Array(GitRepoView), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
      detail: { summary: "The workspace's git repositories with their sync status, newest first" },
    })
    .post(
      '',
      async ({ caller, body, set }) => {
        const row = await deps.gitRepos.create(caller, body);
        set.status = 201;
        return toGitRepoView(row);
      },
      {
        body: GitRepoCreate,
        response: { 201: GitRepoView, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
        detail: { summary: 'Connect a repository; its first sync is queued at once' },
      },
    )
    .get('/:id', async ({ caller, params }) => toGitRepoView(await deps.gitRepos.get(caller, params.id)), {
      params: IdParams,
      response: { 200: GitRepoView, 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
      detail: { summary: 'One repository and its sync status' },
    })
    .patch('/:id', async ({ caller, params, body }) => toGitRepoView(await deps.gitRepos.update(caller, params.id, body)), {
      params: IdParams,
      body: GitRepoPatch,
      response: { 200: GitRepoView, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
      detail: { summary: 'Change the URL, branch, path or credentials; the next sync uses them' },
    })
    .delete(
      '/:id',
      async ({ caller, params, set }) => {
        await deps.gitRepos.remove(caller, params.id);
        set.status = 204;
      },
      {
        params: IdParams,
        response: { 204: t.Void(), 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: { summary: 'Disconnect the repository; the tests it made stay, as ordinary tests' },
      },
    )
    .post(
      '/:id/sync',
      async ({ caller, params, set }) => {
        const row = await deps.gitRepos.requestSync(caller, params.id);
        set.status = 202;
        return toGitRepoView(row);
      },
      {
        params: IdParams,
        body: NoInput,
        response: { 202: GitRepoView, 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: { summary: 'Queue a sync (a background job); poll GET /git-repos/{id} for its status' },
      },
    );
