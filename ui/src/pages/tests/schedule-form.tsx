/** ScheduleForm({ test, onCreated }): schedule the test: a cron expression (its shape checked here) read aloud ("every day at 02:00"), a time zone (the browser's by default), an optional configuration and machines; API errors at their field. */
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { configsQuery, machinesQuery } from '../../api/queries';
import type { Schedule, Test } from '../../api/types';
import { ErrorNotice, errorMessage } from '../../components/common/error-notice';
import { focusFirstError, TextField } from '../../components/common/text-field';
import { cronShapeProblem, describeCron } from './cron-hint';
import { scheduleFieldOfError } from './schedule-error';
import { browserTimeZone, supportedTimeZones, timeZoneOptions } from './time-zones';

export function ScheduleForm({ test, onCreated }: { test: Test; onCreated?: (schedule: Schedule) => void }) {
  const id = useId();
  const formId = `${id}-form`;
  const queryClient = useQueryClient();
  const machines = useQuery(machinesQuery);
  const configs = useQuery(configsQuery);
  const browserZone = useMemo(browserTimeZone, []);
  const zones = useMemo(() => timeZoneOptions(supportedTimeZones(), browserZone), [browserZone]);
  const [cron, setCron] = useState('0 2 * * *');
  const [timezone, setTimezone] = useState(browserZone);
  const [configId, setConfigId] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [cronProblem, setCronProblem] = useState<string | null>(null);

  const offering = (machines.data ?? []).filter((m) => m.tools.some((t) => t.tool === test.tool));

  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/schedules', {
          body: {
            test_id: test.id,
            cron: cron.trim(),
            timezone,
            config_id: configId || null,
            machine_ids: [...chosen].filter((machineId) => offering.some((m) => m.id === machineId)),
            enabled: true,
          },
        }),
      ),
    onSuccess: (schedule) => {
      queryClient.setQueryData<Schedule[]>(['schedules'], (previous) => (previous ? [schedule, ...previous] : previous));
      void queryClient.invalidateQueries({ queryKey: ['schedules'] });
      onCreated?.(schedule);
    },
    onError: () => focusFirstError(formId),
  });

  const field = scheduleFieldOfError(create.error);
  const fieldError = (name: typeof field) => (create.error && field === name ? errorMessage(create.error) : undefined);
  const reading = describeCron(cron);
  const toggle = (machineId: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(machineId);
      else next.delete(machineId);
      return next;
    });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = cronShapeProblem(cron);
    setCronProblem(problem);
    if (problem) {
      create.reset();
      focusFirstError(formId);
      return;
    }
    create.mutate();
  };

  return (
    <form id={formId} className="schedule-form" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>New schedule</h3>
      <TextField
        id={`${id}-cron`}
        label="Cron expression"
        value={cron}
        onChange={(value) => {
          setCron(value);
          setCronProblem(null);
          if (field === 'cron') create.reset();
        }}
        error={cronProblem ?? fieldError('cron')}
        hint={
          reading
            ? `Runs ${reading}, in the chosen time zone. Five fields: minute hour day-of-month month day-of-week.`
            : 'Five fields: minute hour day-of-month month day-of-week, e.g. "0 2 * * *" for every day at 02:00, "0 3 * * mon-fri" for weekdays at 03:00.'
        }
        inputProps={{ required: true, autoComplete: 'off', spellCheck: false }}
      />
      <div className="field">
        <label htmlFor={`${id}-timezone`}>Time zone</label>
        <select
          id={`${id}-timezone`}
          value={timezone}
          onChange={(event) => {
            setTimezone(event.target.value);
            if (field === 'timezone') create.reset();
          }}
          aria-invalid={fieldError('timezone') ? true : undefined}
          aria-describedby={`${id}-timezone-hint${fieldError('timezone') ? ` ${id}-timezone-error` : ''}`}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
              {zone === browserZone ? ' (this browser)' : ''}
            </option>
          ))}
        </select>
        <p className="field-hint" id={`${id}-timezone-hint`}>
          The expression is read in this zone's wall-clock time, daylight saving included.
        </p>
        {fieldError('timezone') ? (
          <p className="field-error" id={`${id}-timezone-error`}>
            {fieldError('timezone')}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={`${id}-config`}>Load configuration (optional)</label>
        <select
          id={`${id}-config`}
          value={configId}
          onChange={(event) => setConfigId(event.target.value)}
          aria-invalid={fieldError('config') ? true : undefined}
          aria-describedby={fieldError('config') ? `${id}-config-error` : undefined}
        >
          <option value="">None: the script decides</option>
          {(configs.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        {fieldError('config') ? (
          <p className="field-error" id={`${id}-config-error`}>
            {fieldError('config')}
          </p>
        ) : null}
        <ErrorNotice error={configs.error} />
      </div>
      <fieldset className="schedule-machines" aria-describedby={`${id}-machines-hint`}>
        <legend>Machines (optional)</legend>
        <p className="field-hint" id={`${id}-machines-hint`}>
          With none checked, each run takes one free machine that offers <code>{test.tool}</code>.
        </p>
        {machines.error ? <ErrorNotice error={machines.error} /> : null}
        {offering.length ? (
          <ul className="machine-choices">
            {offering.map((machine) => (
              <li key={machine.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={chosen.has(machine.id)}
                    onChange={(event) => toggle(machine.id, event.target.checked)}
                    aria-invalid={fieldError('machines') ? true : undefined}
                  />
                  {machine.name} <span className="muted">({machine.status})</span>
                </label>
              </li>
            ))}
          </ul>
        ) : machines.data ? (
          <p className="muted">No machine offers this tool yet.</p>
        ) : null}
        {fieldError('machines') ? (
          <p className="field-error" role="alert">
            {fieldError('machines')}
          </p>
        ) : null}
      </fieldset>
      {create.error && field === null ? <ErrorNotice error={create.error} title="The schedule was not created" /> : null}
      <div className="actions">
        <button type="submit" className="button primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create schedule'}
        </button>
      </div>
    </form>
  );
}
