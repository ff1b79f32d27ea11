/** StartRunPanel({ test }): start a run of a saved test on chosen machines (those up that offer its tool) with a load configuration, then open the run. */
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { api, unwrap } from '../../api/client';
import { configsQuery, machinesQuery } from '../../api/queries';
import type { LoadConfig, Test } from '../../api/types';
import { StagesPreview } from '../../components/charts/stages-preview';
import { ErrorNotice } from '../../components/common/error-notice';
import { machinesOffering } from './test-form';

function configSummary(config: LoadConfig): string {
  if (config.stages?.length) return `${config.stages.length} stage${config.stages.length === 1 ? '' : 's'}, up to ${Math.max(...config.stages.map((s) => s.target))} VUs`;
  if (config.vus !== null && config.duration) return `${config.vus} VUs for ${config.duration}`;
  return 'no load shape';
}

export function StartRunPanel({ test }: { test: Test }) {
  const id = useId();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const machines = useQuery(machinesQuery);
  const configs = useQuery(configsQuery);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [configId, setConfigId] = useState('');

  const offering = machinesOffering(machines.data, test.tool);
  const offlineCount = (machines.data ?? []).filter((m) => m.status === 'offline' && m.tools.some((t) => t.tool === test.tool)).length;
  const config = configs.data?.find((c) => c.id === configId) ?? null;

  const start = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/tasks', {
          body: {
            testId: test.id,
            ...(chosen.size ? { machineIds: [...chosen].filter((machineId) => offering.some((m) => m.id === machineId)) } : {}),
            ...(configId ? { configId } : {}),
          },
        }),
      ),
    onSuccess: (task) => {
      void queryClient.invalidateQueries({ queryKey: ['tasks'] });
      navigate(`/runs/${encodeURIComponent(task.public_id || task.id)}`);
    },
  });

  const toggle = (machineId: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(machineId);
      else next.delete(machineId);
      return next;
    });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    start.mutate();
  };

  return (
    <section className="panel" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Start a run</h2>
      <form onSubmit={onSubmit}>
        <fieldset>
          <legend>Machines</legend>
          {machines.isPending ? (
            <p className="muted">Loading the machines…</p>
          ) : machines.error ? (
            <ErrorNotice error={machines.error} />
          ) : offering.length === 0 ? (
            <p className="notice notice-warning">
              No machine that is up offers <code>{test.tool}</code> now{offlineCount ? ` (${offlineCount} offline)` : ''}. You can still start the run: it waits,
              and its page says why, until a machine can take it. <Link href="/machines">Manage machines</Link>
            </p>
          ) : (
            <>
              <p className="field-hint" id={`${id}-machines-hint`}>
                Check the machines to run on together; with none checked, the run takes any free machine that offers{' '}
                <code>{test.tool}</code>.{offlineCount ? ` ${offlineCount} offline machine${offlineCount === 1 ? '' : 's'} not shown.` : ''}
              </p>
              <ul className="machine-choices">
                {offering.map((machine) => (
                  <li key={machine.id}>
                    <label>
                      <input
                        type="checkbox"
                        checked={chosen.has(machine.id)}
                        onChange={(event) => toggle(machine.id, event.target.checked)}
                        aria-describedby={`${id}-machines-hint`}
                      />
                      {machine.name} <span className="muted">({machine.hostname}; {machine.status === 'busy' ? 'busy: the run waits for it' : machine.status})</span>
                    </label>
                  </li>
                ))}
              </ul>
            </>
          )}
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-config`}>Load configuration</label>
          <select id={`${id}-config`} value={configId} onChange={(event) => setConfigId(event.target.value)} aria-describedby={`${id}-config-hint`}>
            <option value="">None: the script decides{test.tool === 'http' ? ' (http: the steps once, one virtual user)' : ''}</option>
            {(configs.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}: {configSummary(c)}
              </option>
            ))}
          </select>
          <p className="field-hint" id={`${id}-config-hint`}>
            A configuration sets the virtual users and duration (or stages) for every tool. <Link href="/configs">Manage configurations</Link>
          </p>
          {configs.error ? <ErrorNotice error={configs.error} /> : null}
          {config ? (
            config.stages?.length ? (
              <StagesPreview stages={config.stages} />
            ) : config.vus !== null && config.duration ? (
              <StagesPreview vus={config.vus} duration={config.duration} />
            ) : null
          ) : null}
        </div>
        <ErrorNotice error={start.error} title="The run did not start" />
        <div className="actions">
          <button type="submit" className="button primary" disabled={start.isPending}>
            {start.isPending ? 'Starting…' : 'Start a run'}
          </button>
          {test.status === 'archived' ? <span className="muted">This test is archived.</span> : null}
        </div>
      </form>
    </section>
  );
}
