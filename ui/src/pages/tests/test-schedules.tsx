/**
 * TestSchedules({ test }): the test's schedules (cron, time zone, next and last run, enabled, last error) with edit,
 * enable/disable and delete, and a form to add one; "Edit" puts the same form, filled in, in the new one's place.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { schedulesQuery } from '../../api/queries';
import type { Schedule, Test } from '../../api/types';
import { ConfirmButton } from '../../components/common/confirm-button';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatDateTime, formatRelativeTime } from '../../components/common/formatters';
import { describeCron } from './cron-hint';
import { ScheduleForm } from './schedule-form';

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span className="muted">–</span>;
  return (
    <time dateTime={iso} title={formatRelativeTime(iso)}>
      {formatDateTime(iso)}
    </time>
  );
}

function ScheduleRow({ schedule, editId, onEdit }: { schedule: Schedule; editId: string; onEdit(): void }) {
  const queryClient = useQueryClient();
  const replace = (changed: Schedule) =>
    queryClient.setQueryData<Schedule[]>(['schedules'], (previous) => previous?.map((s) => (s.id === changed.id ? changed : s)));
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => unwrap(api.PATCH('/api/v1/schedules/{id}', { params: { path: { id: schedule.id } }, body: { enabled } })),
    onSuccess: replace,
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/schedules/{id}', { params: { path: { id: schedule.id } } })),
    onSuccess: () => {
      queryClient.setQueryData<Schedule[]>(['schedules'], (previous) => previous?.filter((s) => s.id !== schedule.id));
      void queryClient.invalidateQueries({ queryKey: ['schedules'] });
    },
  });
  const reading = describeCron(schedule.cron);
  return (
    <tr>
      <th scope="row">
        <code>{schedule.cron}</code>
        {reading ? <span className="cron-reading">{reading}</span> : null}
      </th>
      <td>{schedule.timezone}</td>
      <td>{schedule.enabled ? <When iso={schedule.next_run_at} /> : <span className="muted">disabled</span>}</td>
      <td>
        {schedule.last_task_id ? (
          <Link href={`/runs/${encodeURIComponent(schedule.last_task_id)}`}>
            <When iso={schedule.last_run_at} />
          </Link>
        ) : schedule.last_run_at ? (
          <When iso={schedule.last_run_at} />
        ) : (
          <span className="muted">not yet</span>
        )}
        {schedule.last_error ? <p className="field-error">{schedule.last_error}</p> : null}
      </td>
      <td>
        <span className={`badge ${schedule.enabled ? 'badge-success' : 'badge-muted'}`}>{schedule.enabled ? 'enabled' : 'disabled'}</span>
      </td>
      <td>
        <span className="row-actions">
          <button type="button" className="button" id={editId} onClick={onEdit}>
            Edit
          </button>
          <button type="button" className="button" onClick={() => toggle.mutate(!schedule.enabled)} disabled={toggle.isPending}>
            {schedule.enabled ? 'Disable' : 'Enable'}
          </button>
          <ConfirmButton
            label="Delete"
            confirmLabel="Yes, delete the schedule"
            question={`Delete the schedule "${schedule.cron}"? Runs it started are kept.`}
            busy={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </span>
        <ErrorNotice error={toggle.error ?? remove.error} />
      </td>
    </tr>
  );
}

export function TestSchedules({ test }: { test: Test }) {
  const id = useId();
  const schedules = useQuery({ ...schedulesQuery, refetchInterval: 60_000 });
  const mine = (schedules.data ?? []).filter((s) => s.test_id === test.id);
  const [editingId, setEditingId] = useState<string | null>(null);
  // A schedule deleted (here or elsewhere) while its form is open: nothing is left to edit.
  const editing = mine.find((s) => s.id === editingId);
  const editButtonId = (scheduleId: string) => `${id}-edit-${scheduleId}`;

  // Back from the form (saved or cancelled): the focus returns to the row's Edit button, not to the page's start.
  const returnTo = useRef<string | null>(null);
  useEffect(() => {
    if (editingId !== null || !returnTo.current) return;
    document.getElementById(editButtonId(returnTo.current))?.focus();
    returnTo.current = null;
  });
  const closeForm = () => {
    returnTo.current = editingId;
    setEditingId(null);
  };

  return (
    <section className="panel" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Schedules</h2>
      {schedules.isPending ? (
        <p className="muted">Loading the schedules…</p>
      ) : schedules.error ? (
        <ErrorNotice error={schedules.error} />
      ) : mine.length === 0 ? (
        <p className="muted">This test has no schedule: add one below to run it at set times.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">The schedules of this test</caption>
            <thead>
              <tr>
                <th scope="col">Cron</th>
                <th scope="col">Time zone</th>
                <th scope="col">Next run</th>
                <th scope="col">Last run</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {mine.map((schedule) => (
                <ScheduleRow key={schedule.id} schedule={schedule} editId={editButtonId(schedule.id)} onEdit={() => setEditingId(schedule.id)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing ? (
        <ScheduleForm key={editing.id} test={test} schedule={editing} onSaved={closeForm} onCancel={closeForm} />
      ) : (
        <ScheduleForm test={test} />
      )}
    </section>
  );
}
