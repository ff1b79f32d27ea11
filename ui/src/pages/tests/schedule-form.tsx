/**
 * ScheduleForm({ test, schedule?, onSaved?, onCancel? }): schedule the test (POST), or with `schedule` change that one
 * (PATCH, with its values to start from and an Enabled box): a cron expression (its shape checked here) read aloud
 * ("every day at 02:00"), a time zone (the browser's by default), an optional configuration and machines; API errors at
 * their field.
 */
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { configsQuery, machinesQuery } from '../../api/queries';
import type { Schedule, Test } from '../../api/types';
import { ErrorNotice, errorMessage } from '../../components/common/error-notice';
import { focusFirstError, TextField } from '../../components/common/text-field';
import { cronShapeProblem, describeCron } from './cron-hint';
import { draftOf, listedMachines, scheduleBody } from './schedule-draft';
import { scheduleFieldOfError } from './schedule-error';
import { browserTimeZone, supportedTimeZones, timeZoneOptions } from './time-zones';

export function ScheduleForm(props: { test: Test; schedule?: Schedule; onSaved?: (schedule: Schedule) => void; onCancel?: () => void }) {
  const { test, schedule, onSaved, onCancel } = props;
  const editing = schedule !== undefined;
  const id = useId();
  const formId = `${id}-form`;
  const queryClient = useQueryClient();
  const machines = useQuery(machinesQuery);
  const configs = useQuery(configsQuery);
  const browserZone = useMemo(browserTimeZone, []);
  // The initial values once: a refetch of the schedules while editing must not overwrite what is being typed.
  const [initial] = useState(() => draftOf(schedule, browserZone));
  const zones = useMemo(() => timeZoneOptions(supportedTimeZones(), browserZone, initial.timezone), [browserZone, initial.timezone]);
  const [cron, setCron] = useState(initial.cron);
  const [timezone, setTimezone] = useState(initial.timezone);
  const [configId, setConfigId] = useState(initial.configId);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(initial.machineIds));
  const [enabled, setEnabled] = useState(initial.enabled);
  const [cronProblem, setCronProblem] = useState<string | null>(null);

  const offering = (machines.data ?? []).filter((m) => m.tools.some((t) => t.tool === test.tool));
  const listed = listedMachines(offering, machines.data ?? [], initial.machineIds);

  const save = useMutation({
    mutationFn: () => {
      const body = scheduleBody(
        { cron, timezone, configId, machineIds: [...chosen], enabled },
        listed.map((m) => m.id),
      );
      return editing
        ? unwrap(api.PATCH('/api/v1/schedules/{id}', { params: { path: { id: schedule.id } }, body }))
        : unwrap(api.POST('/api/v1/schedules', { body: { ...body, test_id: test.id } }));
    },
    onSuccess: (saved) => {
      queryClient.setQueryData<Schedule[]>(['schedules'], (previous) =>
        !previous ? previous : editing ? previous.map((s) => (s.id === saved.id ? saved : s)) : [saved, ...previous],
      );
      void queryClient.invalidateQueries({ queryKey: ['schedules'] });
      onSaved?.(saved);
    },
    onError: () => focusFirstError(formId),
  });

  // Editing starts at the expression: the form has just opened below the list, where the focus is not.
  useEffect(() => {
    if (editing) document.getElementById(`${id}-cron`)?.focus();
  }, [editing, id]);

  const field = scheduleFieldOfError(save.error);
  const fieldError = (name: typeof field) => (save.error && field === name ? errorMessage(save.error) : undefined);
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
      save.reset();
      focusFirstError(formId);
      return;
    }
    save.mutate();
  };

  return (
    <form id={formId} className="schedule-form" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>{editing ? 'Edit schedule' : 'New schedule'}</h3>
      <TextField
        id={`${id}-cron`}
        label="Cron expression"
        value={cron}
        onChange={(value) => {
          setCron(value);
          setCronProblem(null);
          if (field === 'cron') save.reset();
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
            if (field === 'timezone') save.reset();
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
        {listed.length ? (
          <ul className="machine-choices">
            {listed.map((machine) => (
              <li key={machine.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={chosen.has(machine.id)}
                    onChange={(event) => toggle(machine.id, event.target.checked)}
                    aria-invalid={fieldError('machines') ? true : undefined}
                  />
                  {machine.name}{' '}
                  <span className="muted">
                    ({machine.status}
                    {offering.includes(machine) ? '' : `, does not offer ${test.tool}`})
                  </span>
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
      {editing ? (
        <div className="field">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={enabled}
              onChange={(event) => setEnabled(event.target.checked)}
              aria-describedby={`${id}-enabled-hint`}
            />
            Enabled
          </label>
          <p className="field-hint" id={`${id}-enabled-hint`}>
            A disabled schedule never starts a run.
          </p>
        </div>
      ) : null}
      {save.error && field === null ? (
        <ErrorNotice error={save.error} title={editing ? 'The schedule was not saved' : 'The schedule was not created'} />
      ) : null}
      <div className="actions">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? (editing ? 'Saving…' : 'Creating…') : editing ? 'Save schedule' : 'Create schedule'}
        </button>
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
