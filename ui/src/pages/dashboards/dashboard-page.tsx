/**
 * One dashboard (/dashboards/:id): its panels of metric queries, each drawn once it nears the viewport (queries in
 * parallel), a time range for all of them (last 15 min, 1 h, 6 h, 24 h, or a run's span; kept in the URL), and
 * add / edit / remove panels (PUT replaces the dashboard's panels).
 */
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'wouter';
import { api, unwrap } from '../../api/client';
import { machinesQuery, taskQuery, testsQuery } from '../../api/queries';
import type { Task } from '../../api/types';
import { ConfirmButton } from '../../components/common/confirm-button';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatDateTime } from '../../components/common/formatters';
import { Loading } from '../../components/common/loading';
import { PageHeader } from '../../components/common/page-header';
import { DashboardPanel, panelsNearFirstViewport, preloadChart } from './dashboard-panel';
import { dashboardQuery, recentRunsQuery, type Dashboard } from './dashboard-queries';
import { RANGES, rangeChoiceOf, rangeOf, refetchMsOf, type NameOf } from './metric-query';
import { MAX_PANELS, type Panel } from './panel-draft';
import { PanelForm, type Choice } from './panel-form';
import './dashboards.css';

export { prefetchDashboard as prefetch } from './dashboard-prefetch';

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; index: number };

function runLabel(task: Task, testNames: Map<string, string>): string {
  const name = testNames.get(task.test_id) ?? 'deleted test';
  return `${task.public_id} · ${name} · ${task.status} · ${formatDateTime(task.started_at ?? task.created_at)}`;
}

export default function DashboardPage() {
  const { id = '' } = useParams<{ id: string }>();
  const headingId = useId();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const dashboard = useQuery(dashboardQuery(id));
  const runs = useQuery(recentRunsQuery);
  const tests = useQuery(testsQuery);
  const machines = useQuery(machinesQuery);

  const testNames = useMemo(() => new Map((tests.data ?? []).map((t) => [t.id, t.name])), [tests.data]);
  const runById = useMemo(() => new Map((runs.data ?? []).map((t) => [t.id, t])), [runs.data]);
  const machineNames = useMemo(() => new Map((machines.data ?? []).map((m) => [m.id, m.name])), [machines.data]);
  const runId = params.get('run') ?? '';
  // The chosen run by its id, in parallel with the list: its span is the panels' range, so they need not wait for 200 runs.
  const chosenRun = useQuery({ ...taskQuery(runId), enabled: runId !== '' });
  const nameOf: NameOf = useCallback(
    (label, value) =>
      label === 'run'
        ? (runById.get(value)?.public_id ?? (value === chosenRun.data?.id ? chosenRun.data.public_id : value))
        : label === 'test'
          ? (testNames.get(value) ?? value)
          : label === 'machine'
            ? (machineNames.get(value) ?? value)
            : value,
    [runById, testNames, machineNames, chosenRun.data],
  );

  const choice = rangeChoiceOf(params);
  const rangeId = choice.kind === 'relative' ? choice.id : '1h';
  const run = runId ? (chosenRun.data ?? runById.get(runId) ?? null) : null;
  const range = rangeOf(choice, run);
  const refetchMs = refetchMsOf(choice, run);
  // The run picker's 200 labels, made again only when the runs or the tests' names change (not on every render).
  const startedRuns = useMemo(() => (runs.data ?? []).filter((t) => t.started_at), [runs.data]);
  const runChoices: Choice[] = useMemo(() => startedRuns.map((t) => ({ value: t.id, label: runLabel(t, testNames) })), [startedRuns, testNames]);
  // The panels the prefetch asked for (the first viewport's, as the page first opened), known near without a layout.
  const [firstViewportPanels] = useState(panelsNearFirstViewport);
  const hasRange = range !== null;
  // The chart code once the panels can ask for their data, a task after they did: its first run (uPlot's module sets
  // up number and date formats, ~30 ms on a cold page) then overlaps their queries instead of holding them back.
  useEffect(() => {
    if (!hasRange) return;
    const timer = setTimeout(preloadChart, 0);
    return () => clearTimeout(timer);
  }, [hasRange]);

  const setRange = (value: string) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value === 'run') {
          const first = (runs.data ?? []).find((t) => t.started_at);
          next.delete('range');
          next.set('run', runId || first?.id || '');
        } else {
          next.delete('run');
          next.set('range', value);
        }
        return next;
      },
      { replace: true },
    );
  const setRun = (value: string) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.delete('range');
        next.set('run', value);
        return next;
      },
      { replace: true },
    );

  const save = useMutation({
    mutationFn: (panels: Panel[]) =>
      unwrap(api.PUT('/api/v1/dashboards/{id}', { params: { path: { id } }, body: { name: dashboard.data!.name, panels } })),
    onSuccess: (saved) => {
      queryClient.setQueryData(dashboardQuery(id).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: ['dashboards'], exact: false, refetchType: 'none' });
      setEditing({ kind: 'none' });
    },
  });

  if (dashboard.isPending) return <Loading label="Loading the dashboard…" />;
  if (!dashboard.data) {
    return (
      <>
        <PageHeader title="Dashboard" />
        <ErrorNotice error={dashboard.error} title="The dashboard could not be loaded" />
        <p>
          <Link href="/dashboards">All dashboards</Link>
        </p>
      </>
    );
  }
  const current: Dashboard = dashboard.data;
  const panels = current.panels as Panel[];
  const testChoices: Choice[] = (tests.data ?? []).map((t) => ({ value: t.id, label: t.name }));
  const machineChoices: Choice[] = (machines.data ?? []).map((m) => ({ value: m.id, label: m.name }));
  const canAdd = panels.length < MAX_PANELS;

  const form = (panel: Panel | null, index: number | null) => (
    <PanelForm
      key={index ?? 'new'}
      panel={panel}
      runs={runChoices}
      tests={testChoices}
      machines={machineChoices}
      saving={save.isPending}
      error={save.error}
      onCancel={() => {
        save.reset();
        setEditing({ kind: 'none' });
      }}
      onSave={(saved) => save.mutate(index === null ? [...panels, saved] : panels.map((p, i) => (i === index ? saved : p)))}
    />
  );

  return (
    <>
      <p className="breadcrumb">
        <Link href="/dashboards">Dashboards</Link>
      </p>
      <PageHeader
        title={current.name}
        description="Metric panels of this workspace's runs. Every panel shows the time range chosen here."
        actions={
          editing.kind === 'none' && canAdd ? (
            <button type="button" className="button primary" onClick={() => setEditing({ kind: 'new' })}>
              Add panel
            </button>
          ) : null
        }
      />
      <div className="filters dashboard-range">
        <div className="field">
          <label htmlFor={`${headingId}-range-select`}>Time range</label>
          <select id={`${headingId}-range-select`} value={runId ? 'run' : rangeId} onChange={(event) => setRange(event.target.value)}>
            {RANGES.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
            <option value="run" disabled={!runId && startedRuns.length === 0}>
              A run&apos;s span{!runId && !runs.isPending && startedRuns.length === 0 ? ' (no run yet)' : ''}
            </option>
          </select>
        </div>
        {runId ? (
          <div className="field">
            <label htmlFor={`${headingId}-run-select`}>Run</label>
            <select id={`${headingId}-run-select`} value={runId} onChange={(event) => setRun(event.target.value)}>
              {runChoices.some((c) => c.value === runId) ? null : <option value={runId}>{runs.isPending ? 'Loading runs…' : runId}</option>}
              {runChoices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {runId && !chosenRun.isPending && !run ? <p className="muted">This run was not found in this workspace.</p> : null}
        {run && range ? (
          <p className="muted">
            From {formatDateTime(run.started_at)} to {run.finished_at ? formatDateTime(run.finished_at) : 'now (still running)'}.
          </p>
        ) : null}
      </div>
      <ErrorNotice error={runs.error} title="The runs could not be loaded" />
      {editing.kind === 'new' ? form(null, null) : null}
      {editing.kind === 'none' ? <ErrorNotice error={save.error} title="The change was not saved" /> : null}
      {panels.length === 0 && editing.kind !== 'new' ? (
        <EmptyState title="No panels yet">
          <p>
            A panel charts one metric of your runs, such as requests per second or p95 latency, split by run, machine or test.
            Add one, then pick a time range or a run above.
          </p>
          <button type="button" className="button primary" onClick={() => setEditing({ kind: 'new' })}>
            Add panel
          </button>
        </EmptyState>
      ) : (
        <div className="dashboard-grid">
          {panels.map((panel, index) =>
            editing.kind === 'edit' && editing.index === index ? (
              <div key={index} className="dashboard-grid-wide">
                {form(panel, index)}
              </div>
            ) : (
              <DashboardPanel
                key={`${index}:${panel.title}`}
                panel={panel}
                range={range}
                refetchMs={refetchMs}
                nameOf={nameOf}
                eager={index < firstViewportPanels}
                actions={
                  <>
                    <button
                      type="button"
                      className="button"
                      onClick={() => setEditing({ kind: 'edit', index })}
                      aria-label={`Edit panel ${panel.title}`}
                      disabled={save.isPending}
                    >
                      Edit
                    </button>
                    <ConfirmButton
                      label="Remove"
                      confirmLabel={`Remove ${panel.title}`}
                      keepLabel="Keep"
                      question={`Remove panel ${panel.title}?`}
                      busy={save.isPending}
                      onConfirm={() => save.mutate(panels.filter((_p, i) => i !== index))}
                    />
                  </>
                }
              />
            ),
          )}
        </div>
      )}
      {!canAdd ? <p className="muted">A dashboard holds at most {MAX_PANELS} panels.</p> : null}
    </>
  );
}
