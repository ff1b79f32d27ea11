/**
 * The run page (/runs/:id): verdict, status, why it waits, figures, thresholds, figures per endpoint, errors, machines,
 * cancel, "Set as baseline", charts, a comparison with the baseline or another run (per endpoint too) and the live log.
 */
import { lazy, Suspense, useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'wouter';
import { api, unwrap } from '../../api/client';
import { isLiveStatus, machinesQuery, taskQuery, testQuery } from '../../api/queries';
import { ConfirmButton } from '../../components/common/confirm-button';
import { ErrorNotice } from '../../components/common/error-notice';
import { Loading } from '../../components/common/loading';
import { PageHeader } from '../../components/common/page-header';
import { LiveLog } from '../../components/live-log/live-log';
import { BaselineControl } from './baseline-control';
import { RunCompare } from './run-compare';
import { RunEndpoints } from './run-endpoints';
import { RunErrors } from './run-errors';
import { RunFigures } from './run-figures';
import { RunSummary } from './run-summary';
import { RunThresholds, RunVerdict } from './run-thresholds';
import './runs.css';

const RunCharts = lazy(() => import('./run-charts'));

export default function RunPage() {
  const { id = '' } = useParams<{ id: string }>();
  const queryClient = useQueryClient();
  const task = useQuery({
    ...taskQuery(id),
    refetchInterval: (query) => (isLiveStatus(query.state.data?.status) ? 2000 : false),
  });
  const testId = task.data?.test_id ?? '';
  const test = useQuery({ ...testQuery(testId), enabled: testId !== '', retry: false });
  const machines = useQuery(machinesQuery);
  const machineNames = useMemo(() => new Map((machines.data ?? []).map((m) => [m.id, m.name])), [machines.data]);

  const cancel = useMutation({
    mutationFn: (taskId: string) => unwrap(api.DELETE('/api/v1/tasks/{id}', { params: { path: { id: taskId } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['tasks'] }),
  });

  if (task.isPending) {
    return (
      <>
        <PageHeader title={`Run ${id}`} />
        <Loading label="Loading the run…" />
      </>
    );
  }
  if (!task.data) {
    return (
      <>
        <PageHeader title={`Run ${id}`} />
        <ErrorNotice error={task.error} />
        <p>
          <Link href="/runs">Back to the runs</Link>
        </p>
      </>
    );
  }

  const run = task.data;
  const live = isLiveStatus(run.status);
  const testLink = test.data ? (
    <Link href={`/tests/${encodeURIComponent(test.data.id)}`}>{test.data.name}</Link>
  ) : (
    <span>{test.isPending ? '…' : 'deleted'}</span>
  );
  return (
    <>
      <PageHeader
        title={`Run ${run.public_id || run.id}`}
        description={
          <>
            Test{' '}
            {testLink}
            {' · '}
            <Link href="/runs">all runs</Link>
          </>
        }
        actions={
          !live ? (
            <BaselineControl task={run} test={test.data} />
          ) : (
            <ConfirmButton
              label="Cancel run"
              confirmLabel="Yes, cancel the run"
              keepLabel="Keep it running"
              question="Cancel this run? The figures measured so far are kept."
              busy={cancel.isPending}
              onConfirm={() => cancel.mutate(run.id)}
            />
          )
        }
      />
      <ErrorNotice error={cancel.error} />
      <ErrorNotice error={task.error} />
      <RunVerdict task={run} />
      <RunSummary task={run} machineNames={machineNames} />
      <RunFigures task={run} />
      <RunThresholds task={run} pending={live ? (test.data?.thresholds ?? []) : []} />
      {run.status === 'pending' ? null : (
        <>
          <RunEndpoints taskId={run.id} live={live} />
          <RunErrors taskId={run.id} live={live} />
        </>
      )}
      <section aria-labelledby="run-charts">
        <h2 id="run-charts">Over time</h2>
        {run.status === 'pending' ? (
          <p className="muted">The charts appear once the run starts.</p>
        ) : (
          <Suspense fallback={<Loading label="Loading the charts…" />}>
            <RunCharts taskId={run.id} live={live} />
          </Suspense>
        )}
      </section>
      {run.status === 'pending' ? null : <RunCompare task={run} test={test.data} live={live} />}
      <LiveLog taskId={run.id} live={live} downloadName={`run-${run.public_id || run.id}.log`} />
    </>
  );
}
