/**
 * TestForm({ test, initialTool }): create or edit a test: name, tool (a saved test's tool is fixed), status, the script
 * in the code editor (loaded lazily), its thresholds, save, archive/unarchive and delete. API validation errors show
 * at their field (a threshold's at its row and field).
 */
import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { api, unwrap } from '../../api/client';
import { machinesQuery } from '../../api/queries';
import type { Machine, Test } from '../../api/types';
import { ConfirmButton } from '../../components/common/confirm-button';
import { ErrorNotice } from '../../components/common/error-notice';
import { Loading } from '../../components/common/loading';
import { fieldOfError } from './field-of-error';
import { stepNames } from './step-names';
import { ThresholdsEditor } from './threshold-editor';
import { thresholdErrorOf } from './threshold-error';
import { rowProblems, rowsFromThresholds, sameThresholds, thresholdsFromRows, type ThresholdRow } from './threshold-model';
import './tests.css';
import { BUILT_IN_TOOLS, TOOL_DESCRIPTIONS, exampleScript } from './tool-examples';

const CodeEditor = lazy(() => import('../../components/code-editor/code-editor'));

type EditableStatus = 'draft' | 'active';
type CreateTool = 'k6' | 'jmeter' | 'locust' | 'artillery' | 'gatling' | 'custom' | 'http';

/** Tools to offer: the built-in ones and any other that a machine reports (a plugin's). */
export function offeredTools(machines: Machine[] | undefined, current: string): string[] {
  const reported = (machines ?? []).flatMap((machine) => machine.tools.map((tool) => tool.tool));
  return [...new Set([...BUILT_IN_TOOLS, ...reported, current])].filter(Boolean);
}

/** Machines that can run a tool now (online or busy) and offer it. */
export function machinesOffering(machines: Machine[] | undefined, tool: string): Machine[] {
  return (machines ?? []).filter(
    (machine) => machine.status !== 'offline' && (machine.tools.some((offered) => offered.tool === tool) || (tool === 'http' && machine.tools.length === 0)),
  );
}

function toolHint(tool: string, machines: Machine[] | undefined): string {
  const description = TOOL_DESCRIPTIONS[tool] ?? 'A tool from a plugin.';
  if (!machines) return description;
  const count = machinesOffering(machines, tool).length;
  if (count > 0) return `${description} Offered by ${count} machine${count === 1 ? '' : 's'} that ${count === 1 ? 'is' : 'are'} up now.`;
  return `${description} No machine that is up offers it now: see Machines (engines install with bash scripts/install-engines ${tool}).`;
}

export function TestForm({ test, initialTool }: { test: Test | null; initialTool: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const machines = useQuery(machinesQuery);
  const origin = window.location.origin;

  const [name, setName] = useState(test?.name ?? '');
  const [tool, setTool] = useState(test?.tool ?? initialTool);
  const [status, setStatus] = useState<EditableStatus>(test?.status === 'draft' ? 'draft' : 'active');
  const [script, setScript] = useState(test?.script ?? exampleScript(initialTool, origin));
  const [rows, setRows] = useState<ThresholdRow[]>(() => rowsFromThresholds(test?.thresholds));
  const [checkRows, setCheckRows] = useState(false);
  const [saved, setSaved] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);

  const tools = useMemo(() => offeredTools(machines.data, tool), [machines.data, tool]);
  const thresholds = useMemo(() => thresholdsFromRows(rows), [rows]);
  const thresholdsChanged = !sameThresholds(thresholds, test?.thresholds);
  const problems = checkRows ? rowProblems(rows) : [];
  const dirty = test
    ? name !== test.name || script !== test.script || (test.status !== 'archived' && status !== test.status) || thresholdsChanged
    : true;

  // A new test whose script is still the previous tool's example gets the new tool's example.
  const changeTool = (next: string) => {
    if (!test && (script.trim() === '' || script === exampleScript(tool, origin))) setScript(exampleScript(next, origin));
    setTool(next);
  };

  const updateCache = (changed: Test) => {
    queryClient.setQueryData<Test[]>(['tests'], (list) => {
      if (!list) return list;
      return list.some((t) => t.id === changed.id) ? list.map((t) => (t.id === changed.id ? changed : t)) : [changed, ...list];
    });
    queryClient.setQueryData<Test>(['tests', changed.id], changed);
    void queryClient.invalidateQueries({ queryKey: ['tests'] });
  };

  const save = useMutation({
    mutationFn: async () => {
      if (!test) {
        return unwrap(
          api.POST('/api/v1/tests', { body: { name, tool: tool as CreateTool, script, status, ...(thresholds.length ? { thresholds } : {}) } }),
        );
      }
      const body: { name?: string; script?: string; status?: EditableStatus; thresholds?: Test['thresholds'] } = {};
      if (name !== test.name) body.name = name;
      if (script !== test.script) body.script = script;
      if (test.status !== 'archived' && status !== test.status) body.status = status;
      if (thresholdsChanged) body.thresholds = thresholds;
      if (Object.keys(body).length === 0) return test;
      return unwrap(api.PATCH('/api/v1/tests/{id}', { params: { path: { id: test.id } }, body }));
    },
    onSuccess: (result) => {
      updateCache(result);
      setSaved(true);
      if (!test) navigate(`/tests/${encodeURIComponent(result.id)}`, { replace: true });
    },
  });

  const setArchived = useMutation({
    mutationFn: (archived: boolean) =>
      unwrap(api.PATCH('/api/v1/tests/{id}', { params: { path: { id: test!.id } }, body: { status: archived ? 'archived' : 'active' } })),
    onSuccess: (result) => {
      updateCache(result);
      if (result.status !== 'archived') setStatus('active');
    },
  });

  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/tests/{id}', { params: { path: { id: test!.id } } })),
    onSuccess: () => {
      queryClient.setQueryData<Test[]>(['tests'], (list) => list?.filter((t) => t.id !== test!.id));
      // Everything cached under the deleted test (itself, its trend) goes; refetching it would only answer 404.
      queryClient.removeQueries({ queryKey: ['tests', test!.id] });
      void queryClient.invalidateQueries({ queryKey: ['tests'], exact: true });
      navigate('/tests');
    },
  });

  const errorField = fieldOfError(save.error);
  const nameError = errorField === 'name' ? save.error?.message : undefined;
  const scriptError = errorField === 'script' ? save.error?.message : undefined;
  const thresholdError = errorField === 'thresholds' ? thresholdErrorOf(save.error) : null;

  useEffect(() => {
    if (nameError) nameRef.current?.focus();
  }, [nameError]);

  // Leaving the page with unsaved changes asks first.
  useEffect(() => {
    if (!dirty || (!test && !name && script === exampleScript(tool, origin))) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty, test, name, script, tool, origin]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    setCheckRows(true);
    const first = rowProblems(rows)[0];
    if (first) {
      document.querySelector<HTMLElement>(`[data-row="${rows[first.index]!.key}"] .threshold-value`)?.focus();
      return;
    }
    save.mutate();
  };

  const archived = test?.status === 'archived';
  const nameDescribed = [`${id}-name-hint`, nameError ? `${id}-name-error` : ''].filter(Boolean).join(' ');

  return (
    <form className="test-form panel" onSubmit={onSubmit} aria-labelledby={`${id}-heading`} noValidate>
      <h2 id={`${id}-heading`}>{test ? 'Definition' : 'Definition of the new test'}</h2>
      {archived ? (
        <p className="notice notice-info">This test is archived: it is hidden from the list by default. Unarchive it to make it active again.</p>
      ) : null}
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            ref={nameRef}
            id={`${id}-name`}
            className="test-name"
            value={name}
            required
            maxLength={200}
            onChange={(event) => {
              setName(event.target.value);
              setSaved(false);
            }}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameDescribed}
          />
          <p className="field-hint" id={`${id}-name-hint`}>
            Shown in run lists and reports.
          </p>
          {nameError ? (
            <p className="field-error" id={`${id}-name-error`} role="alert">
              {nameError}
            </p>
          ) : null}
        </div>
        <div className="field tool-field">
          <label htmlFor={`${id}-tool`}>Tool</label>
          <select
            id={`${id}-tool`}
            value={tool}
            onChange={(event) => changeTool(event.target.value)}
            disabled={Boolean(test)}
            aria-describedby={`${id}-tool-hint`}
          >
            {tools.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
          <p className="field-hint" id={`${id}-tool-hint`}>
            {test ? 'The tool of a saved test cannot change. ' : ''}
            {toolHint(tool, machines.data)}
          </p>
        </div>
        {!archived ? (
          <div className="field">
            <label htmlFor={`${id}-status`}>Status</label>
            <select id={`${id}-status`} value={status} onChange={(event) => setStatus(event.target.value as EditableStatus)}>
              <option value="draft">draft</option>
              <option value="active">active</option>
            </select>
          </div>
        ) : null}
      </div>

      <div className="field">
        <span className="field-label" id={`${id}-script-label`}>
          Script
        </span>
        <Suspense fallback={<Loading label="Loading the editor…" />}>
          <CodeEditor
            value={script}
            onChange={(value) => {
              setScript(value);
              setSaved(false);
            }}
            tool={tool}
            label={`Script (${tool})`}
            invalid={Boolean(scriptError)}
            describedBy={scriptError ? `${id}-script-error` : undefined}
          />
        </Suspense>
        {scriptError ? (
          <p className="field-error" id={`${id}-script-error`} role="alert">
            {scriptError}
          </p>
        ) : null}
      </div>

      <ThresholdsEditor
        rows={rows}
        onChange={(next) => {
          setRows(next);
          setSaved(false);
        }}
        error={thresholdError}
        problems={problems}
        endpointNames={stepNames(tool, script)}
      />

      {save.error && (!errorField || (errorField === 'thresholds' && !thresholdError)) ? (
        <ErrorNotice error={save.error} title="The test was not saved" />
      ) : null}
      {problems.length > 0 ? (
        <p className="field-error">
          The test was not saved: {problems.length === 1 ? 'a threshold needs' : `${problems.length} thresholds need`} a valid value.
        </p>
      ) : null}
      <ErrorNotice error={setArchived.error} />
      <ErrorNotice error={remove.error} />

      <div className="actions">
        <button type="submit" className="button primary" disabled={save.isPending || (Boolean(test) && !dirty)}>
          {save.isPending ? 'Saving…' : test ? 'Save changes' : 'Create test'}
        </button>
        {test ? (
          <>
            <button type="button" className="button" onClick={() => setArchived.mutate(!archived)} disabled={setArchived.isPending}>
              {archived ? 'Unarchive' : 'Archive'}
            </button>
            <ConfirmButton
              label="Delete"
              confirmLabel="Delete the test"
              question={`Delete “${test.name}”? Its runs are kept.`}
              onConfirm={() => remove.mutate()}
              busy={remove.isPending}
            />
          </>
        ) : null}
        <span role="status" className="muted">
          {saved && !dirty ? 'Saved.' : test && dirty ? 'Unsaved changes: runs use the saved test.' : ''}
        </span>
      </div>
    </form>
  );
}
