/** The dashboards page (/dashboards): the workspace's saved dashboards; create, rename and delete; open one for its panels. */
import { useId, useState, type FormEvent } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { api, unwrap, unwrapPage } from '../../api/client';
import { ConfirmButton } from '../../components/common/confirm-button';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatDateTime, formatRelativeTime } from '../../components/common/formatters';
import { Loading } from '../../components/common/loading';
import { PageHeader } from '../../components/common/page-header';
import type { Dashboard } from './dashboard-queries';
import { validateDashboardName } from './dashboard-name';
import './dashboards.css';

function NameForm(props: { title: string; submitLabel: string; initial: string; saving: boolean; error: unknown; onSave(name: string): void; onCancel(): void }) {
  const { title, submitLabel, initial, saving, error, onSave, onCancel } = props;
  const id = useId().replace(/:/g, '');
  const [name, setName] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateDashboardName(name);
    setProblem(found);
    if (found) {
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    onSave(name.trim());
  };
  return (
    <form className="panel" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={200}
          size={40}
          autoComplete="off"
          autoFocus
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
        />
        {problem ? (
          <p className="field-error" id={`${id}-error`}>
            {problem}
          </p>
        ) : null}
      </div>
      <ErrorNotice error={error} />
      <div className="actions">
        <button type="submit" className="button primary" disabled={saving}>
          {saving ? 'Saving…' : submitLabel}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'rename'; dashboard: Dashboard };

export default function DashboardsPage() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const [notice, setNotice] = useState<string | null>(null);
  const dashboards = useInfiniteQuery({
    queryKey: ['dashboards', 'pages'],
    initialPageParam: '',
    queryFn: ({ pageParam }) => unwrapPage(api.GET('/api/v1/dashboards', { params: { query: { limit: 100, cursor: pageParam || undefined } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const create = useMutation({
    mutationFn: (name: string) => unwrap(api.POST('/api/v1/dashboards', { body: { name, panels: [] } })),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: ['dashboards'] });
      navigate(`/dashboards/${encodeURIComponent(created.id)}`);
    },
  });
  const rename = useMutation({
    mutationFn: ({ dashboard, name }: { dashboard: Dashboard; name: string }) =>
      unwrap(api.PUT('/api/v1/dashboards/{id}', { params: { path: { id: dashboard.id } }, body: { name, panels: dashboard.panels } })),
    onSuccess: (saved) => {
      setEditing({ kind: 'none' });
      setNotice(`Renamed to ${saved.name}.`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['dashboards'] }),
  });
  const remove = useMutation({
    mutationFn: (dashboard: Dashboard) => unwrap(api.DELETE('/api/v1/dashboards/{id}', { params: { path: { id: dashboard.id } } })),
    onSuccess: (_r, dashboard) => setNotice(`Deleted ${dashboard.name}.`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['dashboards'] }),
  });

  const list = dashboards.data?.pages.flatMap((page) => page.items) ?? [];
  const startNew = () => {
    setNotice(null);
    create.reset();
    setEditing({ kind: 'new' });
  };

  return (
    <>
      <PageHeader
        title="Dashboards"
        description="Saved panels of run metrics (requests, errors, latency percentiles) over time, split by run, machine or test."
        actions={
          editing.kind === 'none' ? (
            <button type="button" className="button primary" onClick={startNew}>
              New dashboard
            </button>
          ) : null
        }
      />
      {notice ? (
        <div className="notice notice-success" role="status">
          <p>{notice}</p>
        </div>
      ) : null}
      {editing.kind === 'new' ? (
        <NameForm
          title="New dashboard"
          submitLabel="Create dashboard"
          initial=""
          saving={create.isPending}
          error={create.error}
          onSave={(name) => create.mutate(name)}
          onCancel={() => setEditing({ kind: 'none' })}
        />
      ) : editing.kind === 'rename' ? (
        <NameForm
          key={editing.dashboard.id}
          title={`Rename ${editing.dashboard.name}`}
          submitLabel="Rename"
          initial={editing.dashboard.name}
          saving={rename.isPending}
          error={rename.error}
          onSave={(name) => rename.mutate({ dashboard: editing.dashboard, name })}
          onCancel={() => setEditing({ kind: 'none' })}
        />
      ) : null}
      <ErrorNotice error={remove.error} title="The dashboard was not deleted" />
      {dashboards.isPending ? (
        <Loading label="Loading the dashboards…" />
      ) : !dashboards.data ? (
        <ErrorNotice error={dashboards.error} title="The dashboards could not be loaded" />
      ) : list.length === 0 ? (
        editing.kind === 'none' ? (
          <EmptyState title="No dashboards yet">
            <p>
              Create a dashboard, then add panels: each charts one metric of your runs (requests per second, p95 latency, errors)
              over the last hour, a day, or one run&apos;s span.
            </p>
            <button type="button" className="button primary" onClick={startNew}>
              New dashboard
            </button>
          </EmptyState>
        ) : null
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <caption>Dashboards, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col" className="num">
                    Panels
                  </th>
                  <th scope="col">Updated</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((dashboard) => (
                  <tr key={dashboard.id}>
                    <th scope="row">
                      <Link href={`/dashboards/${encodeURIComponent(dashboard.id)}`}>{dashboard.name}</Link>
                    </th>
                    <td className="num">{dashboard.panels.length}</td>
                    <td>
                      <time dateTime={dashboard.updated_at} title={formatDateTime(dashboard.updated_at)}>
                        {formatRelativeTime(dashboard.updated_at)}
                      </time>
                    </td>
                    <td>
                      <div className="actions">
                        <button
                          type="button"
                          className="button"
                          aria-label={`Rename ${dashboard.name}`}
                          onClick={() => {
                            setNotice(null);
                            rename.reset();
                            setEditing({ kind: 'rename', dashboard });
                          }}
                        >
                          Rename
                        </button>
                        <ConfirmButton
                          label="Delete"
                          confirmLabel={`Delete ${dashboard.name}`}
                          keepLabel="Keep"
                          question={`Delete ${dashboard.name}?`}
                          busy={remove.isPending && remove.variables?.id === dashboard.id}
                          onConfirm={() => remove.mutate(dashboard)}
                        />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {dashboards.hasNextPage ? (
            <div className="pager">
              <button type="button" className="button" onClick={() => void dashboards.fetchNextPage()} disabled={dashboards.isFetchingNextPage}>
                {dashboards.isFetchingNextPage ? 'Loading more…' : 'Load more'}
              </button>
            </div>
          ) : null}
          <ErrorNotice error={dashboards.error} />
        </>
      )}
    </>
  );
}
