/**
 * Git repositories (/git-repos): add a repository (credentials write-only, never shown again), sync now, its status,
 * last commit and last result, the tests it created and the files it skipped with why; delete (its tests stay).
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, ApiError, unwrap, unwrapPage } from '../../api/client';
import { testsQuery } from '../../api/queries';
import type { components } from '../../api/schema';
import type { Test } from '../../api/types';
import { ConfirmButton } from '../../components/common/confirm-button';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatDateTime, formatRelativeTime } from '../../components/common/formatters';
import { Loading } from '../../components/common/loading';
import { PageHeader } from '../../components/common/page-header';
import { StatusBadge } from '../../components/common/status-badge';
import { TextField } from '../../components/common/text-field';
import { bodyOfDraft, emptyDraft, isSyncing, shortCommit, syncSummary, testsOfRepo, validateRepo, type RepoDraft, type RepoErrors } from './git-repo-model';
import './git-repos.css';

type GitRepo = components['schemas']['GitRepo'];

const statusTone: Record<string, string> = { synced: 'success', failed: 'danger', queued: 'info', syncing: 'info', never: 'muted' };

function SyncStatus({ status }: { status: string }) {
  return (
    <span className={`badge badge-${statusTone[status] ?? 'neutral'}`}>
      {isSyncing(status) ? <span className="badge-pulse" aria-hidden="true" /> : null}
      {status}
    </span>
  );
}

function AddRepoForm({ onDone }: { onDone(repo: GitRepo | null): void }) {
  const id = useId().replace(/:/g, '');
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<RepoDraft>(emptyDraft);
  const [errors, setErrors] = useState<RepoErrors>({});
  const change = (patch: Partial<RepoDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const focusFirstError = () =>
    window.requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  const add = useMutation({
    mutationFn: (body: ReturnType<typeof bodyOfDraft>) => unwrap(api.POST('/api/v1/git-repos', { body })),
    onSuccess: (repo) => {
      setDraft(emptyDraft);
      void queryClient.invalidateQueries({ queryKey: ['git-repos'] });
      onDone(repo);
    },
    onError: (error) => {
      // The credentials never stay on the page longer than needed: a failed attempt asks for them again.
      change({ password: '' });
      if (error instanceof ApiError && error.status === 400 && /url|address|host|WEBHOOK_ALLOW_HOSTS/i.test(error.message)) {
        setErrors({ url: error.message });
        focusFirstError();
      }
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateRepo(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstError();
      return;
    }
    add.mutate(bodyOfDraft(draft));
  };
  const formError = add.error instanceof ApiError && errors.url === add.error.message ? null : add.error;

  return (
    <form ref={formRef} className="panel" onSubmit={submit} noValidate aria-labelledby={`${id}-title`} autoComplete="off">
      <h2 id={`${id}-title`}>Add a git repository</h2>
      <TextField
        id={`${id}-url`}
        label="Repository URL"
        value={draft.url}
        onChange={(url) => change({ url })}
        error={errors.url}
        hint="http(s) only, as you would clone it. Private or local addresses need WEBHOOK_ALLOW_HOSTS on the service."
        inputProps={{ type: 'url', size: 56, spellCheck: false, placeholder: 'https://github.com/acme/load-tests.git' }}
      />
      <div className="field-row">
        <TextField
          id={`${id}-branch`}
          label="Branch (optional)"
          value={draft.branch}
          onChange={(branch) => change({ branch })}
          hint="Default: main."
          inputProps={{ size: 20, spellCheck: false, placeholder: 'main' }}
        />
        <TextField
          id={`${id}-path`}
          label="Directory (optional)"
          value={draft.path}
          onChange={(path) => change({ path })}
          hint="Only test files under it are synced; default: the whole repository (at most 200 test files)."
          inputProps={{ size: 28, spellCheck: false, placeholder: 'load-tests' }}
        />
      </div>
      <fieldset>
        <legend>Credentials for a private repository (optional)</legend>
        <p className="field-hint">Sent as HTTP basic auth to this repository&apos;s host only, stored encrypted, never shown again.</p>
        <div className="field-row">
          <TextField
            id={`${id}-username`}
            label="User name"
            value={draft.username}
            onChange={(username) => change({ username })}
            hint="Default: git."
            inputProps={{ size: 20, spellCheck: false, autoComplete: 'off' }}
          />
          <TextField
            id={`${id}-password`}
            label="Password or access token"
            value={draft.password}
            onChange={(password) => change({ password })}
            error={errors.password}
            inputProps={{ type: 'password', size: 32, autoComplete: 'new-password', spellCheck: false }}
          />
        </div>
      </fieldset>
      <ErrorNotice error={formError} title="The repository was not added" />
      <div className="actions">
        <button type="submit" className="button primary" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add repository'}
        </button>
        <button type="button" className="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function RepoSection(props: { repo: GitRepo; tests: Test[] | undefined; onSync(): void; onDelete(): void; syncing: boolean; deleting: boolean }) {
  const { repo, tests, onSync, onDelete, syncing, deleting } = props;
  const id = useId();
  const made = tests ? testsOfRepo(tests, repo) : [];
  const skipped = repo.last_result?.skipped ?? [];
  return (
    <article className="panel git-repo" aria-labelledby={`${id}-title`}>
      <header className="git-repo-header">
        <h2 id={`${id}-title`} className="git-repo-url">
          {repo.url}
        </h2>
        <div className="actions">
          <button type="button" className="button" onClick={onSync} disabled={syncing || isSyncing(repo.sync_status)}>
            {syncing ? 'Queuing…' : 'Sync now'}
          </button>
          <ConfirmButton
            label="Delete"
            confirmLabel="Delete repository"
            keepLabel="Keep"
            question={`Disconnect ${repo.url}? The tests it made stay, as ordinary tests.`}
            busy={deleting}
            onConfirm={onDelete}
          />
        </div>
      </header>
      <dl className="summary-list">
        <div>
          <dt>Status</dt>
          <dd>
            <SyncStatus status={repo.sync_status} />
          </dd>
        </div>
        <div>
          <dt>Branch</dt>
          <dd>
            <code>{repo.branch}</code>
          </dd>
        </div>
        <div>
          <dt>Directory</dt>
          <dd>{repo.path ? <code>{repo.path}</code> : 'the whole repository'}</dd>
        </div>
        <div>
          <dt>Last commit</dt>
          <dd>{repo.last_commit ? <code title={repo.last_commit}>{shortCommit(repo.last_commit)}</code> : '–'}</dd>
        </div>
        <div>
          <dt>Last synced</dt>
          <dd>
            {repo.last_synced_at ? (
              <time dateTime={repo.last_synced_at} title={formatDateTime(repo.last_synced_at)}>
                {formatRelativeTime(repo.last_synced_at)}
              </time>
            ) : (
              'never'
            )}
          </dd>
        </div>
        <div>
          <dt>Credentials</dt>
          <dd>{repo.has_credentials ? 'stored (never shown)' : 'none'}</dd>
        </div>
        <div>
          <dt>Last result</dt>
          <dd>{syncSummary(repo.last_result)}</dd>
        </div>
      </dl>
      {repo.last_error ? (
        <div className="notice notice-warning">
          <strong className="notice-title">{repo.sync_status === 'failed' ? 'The last sync failed' : 'The last sync left something out'}</strong>
          <p>{repo.last_error}</p>
        </div>
      ) : null}
      {repo.sync_status === 'queued' || repo.sync_status === 'syncing' ? (
        <p className="muted" role="status">
          {repo.sync_status === 'queued' ? 'A sync is queued; this page updates when it is done.' : 'Syncing…'}
        </p>
      ) : null}
      <div className="table-wrap">
        <table>
          <caption>Tests from this repository ({made.length})</caption>
          <thead>
            <tr>
              <th scope="col">Test (file)</th>
              <th scope="col">Tool</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {made.length === 0 ? (
              <tr>
                <td colSpan={3} className="muted">
                  {tests === undefined
                    ? 'Loading the tests…'
                    : 'None yet. Test files (.js k6, .py Locust, .jmx JMeter, .yml Artillery, .scala or .java Gatling) become tests at the next sync.'}
                </td>
              </tr>
            ) : (
              made.map((test) => (
                <tr key={test.id}>
                  <th scope="row">
                    <Link href={`/tests/${encodeURIComponent(test.id)}`}>{test.name}</Link>
                  </th>
                  <td>{test.tool}</td>
                  <td>
                    <StatusBadge status={test.status} />
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {skipped.length > 0 ? (
        <div className="table-wrap git-repo-skipped">
          <table>
            <caption>Skipped files ({skipped.length})</caption>
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {skipped.map((file) => (
                <tr key={file.path}>
                  <th scope="row">
                    <code>{file.path}</code>
                  </th>
                  <td>{file.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </article>
  );
}

export default function GitReposPage() {
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const repos = useInfiniteQuery({
    queryKey: ['git-repos', 'pages'],
    initialPageParam: '',
    queryFn: ({ pageParam }) => unwrapPage(api.GET('/api/v1/git-repos', { params: { query: { limit: 100, cursor: pageParam || undefined } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.items.some((repo) => isSyncing(repo.sync_status))) ? 2000 : false),
  });
  const list = repos.data?.pages.flatMap((page) => page.items) ?? [];
  const anySyncing = list.some((repo) => isSyncing(repo.sync_status));
  const tests = useQuery({ ...testsQuery, refetchInterval: anySyncing ? 3000 : false });
  // When a sync ends, the tests it made or changed are refetched at once.
  const wasSyncing = useRef(false);
  useEffect(() => {
    if (wasSyncing.current && !anySyncing) void queryClient.invalidateQueries({ queryKey: testsQuery.queryKey });
    wasSyncing.current = anySyncing;
  }, [anySyncing, queryClient]);

  const sync = useMutation({
    mutationFn: (repo: GitRepo) => unwrap(api.POST('/api/v1/git-repos/{id}/sync', { params: { path: { id: repo.id } }, body: {} })),
    onSuccess: (_r, repo) => setNotice(`A sync of ${repo.url} is queued.`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['git-repos'] }),
  });
  const remove = useMutation({
    mutationFn: (repo: GitRepo) => unwrap(api.DELETE('/api/v1/git-repos/{id}', { params: { path: { id: repo.id } } })),
    onSuccess: (_r, repo) => setNotice(`${repo.url} disconnected. Its tests stay, as ordinary tests.`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['git-repos'] }),
  });
  const startAdding = () => {
    setNotice(null);
    setAdding(true);
  };

  return (
    <>
      <PageHeader
        title="Git repositories"
        description="Tests kept in git: every test file of a repository becomes a test of this workspace, brought up to date by a sync."
        actions={
          adding ? null : (
            <button type="button" className="button primary" onClick={startAdding}>
              Add repository
            </button>
          )
        }
      />
      {notice ? (
        <div className="notice notice-success" role="status">
          <p>{notice}</p>
        </div>
      ) : null}
      {adding ? (
        <AddRepoForm
          onDone={(repo) => {
            setAdding(false);
            if (repo) setNotice(`${repo.url} added; its first sync is queued.${repo.has_credentials ? ' Its credentials are stored encrypted and never shown again.' : ''}`);
          }}
        />
      ) : null}
      <ErrorNotice error={sync.error} title="The sync was not queued" />
      <ErrorNotice error={remove.error} title="The repository was not deleted" />
      {repos.isPending ? (
        <Loading label="Loading the git repositories…" />
      ) : !repos.data ? (
        <ErrorNotice error={repos.error} title="The git repositories could not be loaded" />
      ) : list.length === 0 ? (
        adding ? null : (
          <EmptyState title="No git repositories yet">
            <p>
              Add a repository by its http(s) URL (with an access token for a private one). Its <code>.js</code>, <code>.py</code>,{' '}
              <code>.jmx</code>, <code>.yml</code>, <code>.scala</code> and <code>.java</code> files become k6, Locust, JMeter, Artillery and Gatling tests,
              and a sync brings them up to date.
            </p>
            <button type="button" className="button primary" onClick={startAdding}>
              Add repository
            </button>
          </EmptyState>
        )
      ) : (
        <>
          {list.map((repo) => (
            <RepoSection
              key={repo.id}
              repo={repo}
              tests={tests.data}
              syncing={sync.isPending && sync.variables?.id === repo.id}
              deleting={remove.isPending && remove.variables?.id === repo.id}
              onSync={() => {
                setNotice(null);
                sync.mutate(repo);
              }}
              onDelete={() => remove.mutate(repo)}
            />
          ))}
          {repos.hasNextPage ? (
            <div className="pager">
              <button type="button" className="button" onClick={() => void repos.fetchNextPage()} disabled={repos.isFetchingNextPage}>
                {repos.isFetchingNextPage ? 'Loading more…' : 'Load more'}
              </button>
            </div>
          ) : null}
          <ErrorNotice error={repos.error} />
          <ErrorNotice error={tests.error} title="The tests could not be loaded" />
        </>
      )}
    </>
  );
}
