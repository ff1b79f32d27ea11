/** The load configurations page (/configs): list, create, edit and delete vus/duration or stages presets. */
import { useState } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import type { LoadConfig } from '../../api/types';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorNotice } from '../../components/common/error-notice';
import { Loading } from '../../components/common/loading';
import { PageHeader } from '../../components/common/page-header';
import { ConfigForm } from './config-form';
import { ConfigsTable } from './configs-table';

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; config: LoadConfig };

export default function ConfigsPage() {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const [saved, setSaved] = useState<string | null>(null);
  const configs = useInfiniteQuery({
    queryKey: ['configs', 'pages'],
    initialPageParam: '',
    queryFn: ({ pageParam }) => unwrapPage(api.GET('/api/v1/configs', { params: { query: { limit: 100, cursor: pageParam || undefined } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/configs/{id}', { params: { path: { id } } })),
    onSuccess: () => setSaved(null),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['configs'] }),
  });

  const list = configs.data?.pages.flatMap((page) => page.items) ?? [];
  const form =
    editing.kind === 'none' ? null : (
      <ConfigForm
        key={editing.kind === 'edit' ? editing.config.id : 'new'}
        config={editing.kind === 'edit' ? editing.config : null}
        onDone={(result) => {
          setEditing({ kind: 'none' });
          setSaved(result ? `Saved ${result.name}.` : null);
        }}
      />
    );

  return (
    <>
      <PageHeader
        title="Load configurations"
        description="Named load shapes to run a test with: a number of virtual users for a duration, or stages that ramp up and down."
        actions={
          editing.kind === 'none' ? (
            <button type="button" className="button primary" onClick={() => setEditing({ kind: 'new' })}>
              New configuration
            </button>
          ) : null
        }
      />
      {saved ? (
        <div className="notice notice-success" role="status">
          <p>{saved}</p>
        </div>
      ) : null}
      {form}
      <ErrorNotice error={remove.error} title="The configuration was not deleted" />
      {configs.isPending ? (
        <Loading label="Loading load configurations…" />
      ) : !configs.data ? (
        <ErrorNotice error={configs.error} />
      ) : list.length === 0 ? (
        editing.kind === 'none' ? (
          <EmptyState title="No load configurations yet">
            <p>
              Without one, a run uses its script&apos;s own settings (an <code>http</code> test runs its steps once with one virtual
              user). Create one, such as 10 VUs for 30s, and pick it when you run a test.
            </p>
            <button type="button" className="button primary" onClick={() => setEditing({ kind: 'new' })}>
              New configuration
            </button>
          </EmptyState>
        ) : null
      ) : (
        <>
          <ConfigsTable
            configs={list}
            onEdit={(config) => setEditing({ kind: 'edit', config })}
            onDelete={(config) => remove.mutate(config.id)}
            deletingId={remove.isPending ? (remove.variables ?? null) : null}
          />
          {configs.hasNextPage ? (
            <div className="pager">
              <button type="button" className="button" onClick={() => void configs.fetchNextPage()} disabled={configs.isFetchingNextPage}>
                {configs.isFetchingNextPage ? 'Loading more…' : 'Load more'}
              </button>
            </div>
          ) : null}
          <ErrorNotice error={configs.error} />
        </>
      )}
    </>
  );
}
