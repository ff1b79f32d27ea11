/** The runs page (/runs): the workspace's runs with status, verdict and figures, filtered by test, status and machine on the server, paged. */
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'wouter';
import { machinesQuery, testsQuery } from '../../api/queries';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorNotice } from '../../components/common/error-notice';
import { Loading } from '../../components/common/loading';
import { PageHeader } from '../../components/common/page-header';
import { FirstRun } from './first-run';
import { hasFilters, readFilters, type RunFilters } from './run-filters';
import { RunsFilters } from './runs-filters';
import { RunsTable } from './runs-table';
import { useRuns } from './use-runs';

export default function RunsPage() {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const runs = useRuns(filters);
  const tests = useQuery(testsQuery);
  const machines = useQuery(machinesQuery);

  const testNames = useMemo(() => new Map((tests.data ?? []).map((t) => [t.id, t.name])), [tests.data]);
  const machineNames = useMemo(() => new Map((machines.data ?? []).map((m) => [m.id, m.name])), [machines.data]);
  const shown = useMemo(() => runs.data?.pages.flatMap((page) => page.items) ?? [], [runs.data]);

  const setFilter = (name: keyof RunFilters, value: string) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  const filtered = hasFilters(filters);
  const updating = runs.isPlaceholderData;
  let body;
  if (runs.isPending) body = <Loading label="Loading runs…" />;
  else if (!runs.data) body = <ErrorNotice error={runs.error} />;
  else if (shown.length === 0 && !filtered && !runs.hasNextPage && !updating) body = <FirstRun />;
  else
    body = (
      <>
        <RunsFilters
          filters={filters}
          tests={tests.data ?? []}
          machines={machines.data ?? []}
          onChange={setFilter}
          onClear={() => setParams(new URLSearchParams(), { replace: true })}
        />
        <p className="visually-hidden" role="status" aria-live="polite">
          {updating ? 'Loading the matching runs…' : filtered ? `${shown.length} matching runs loaded` : ''}
        </p>
        {shown.length > 0 ? (
          <RunsTable
            runs={shown}
            testNames={testNames}
            machineNames={machineNames}
            busy={updating}
            caption={filtered ? `Runs matching the filters, newest first (${shown.length} loaded)` : `Runs, newest first (${shown.length} loaded)`}
          />
        ) : updating ? (
          <Loading label="Loading the matching runs…" />
        ) : (
          <EmptyState title="No run matches these filters">
            <p>Clear the filters to see every run, or start the test from its page.</p>
          </EmptyState>
        )}
        {shown.length > 0 ? (
          <div className="pager">
            {runs.hasNextPage ? (
              <button type="button" className="button" onClick={() => void runs.fetchNextPage()} disabled={runs.isFetchingNextPage || updating}>
                {runs.isFetchingNextPage ? 'Loading older runs…' : 'Load older runs'}
              </button>
            ) : (
              <span className="muted">{filtered ? 'All matching runs are loaded.' : 'All runs are loaded.'}</span>
            )}
          </div>
        ) : null}
        <ErrorNotice error={runs.error} />
      </>
    );

  return (
    <>
      <PageHeader title="Runs" description="Every run of this workspace's tests, newest first, with its figures. Open one to follow it live." />
      {body}
    </>
  );
}
