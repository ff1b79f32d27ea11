/**
 * The workspace settings page (/settings/workspace): name (rename) and plan (change, with manage_billing), usage
 * against the plan's limits (GET /workspace, GET /usage, your tokens, waiting tasks), and your e-mail notifications.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { ErrorNotice } from '../../../components/common/error-notice';
import { formatCount, formatDateTime } from '../../../components/common/formatters';
import { Loading } from '../../../components/common/loading';
import { PageHeader } from '../../../components/common/page-header';
import { activeTokenCount } from '../api-tokens/token-model';
import { focusFirstError, TextField } from '../../../components/common/text-field';
import { hasPermission, useCurrentWorkspace } from '../use-current-workspace';
import { NotificationPreferences } from './notification-preferences';
import { fraction, limitText, usageRows, usedText } from './usage-model';
import '../settings.css';

const PLANS = ['starter', 'scale', 'enterprise'] as const;
type Plan = (typeof PLANS)[number];

function WorkspaceForm({ name, plan, canEdit }: { name: string; plan: string; canEdit: boolean }) {
  const id = useId().replace(/:/g, '');
  const queryClient = useQueryClient();
  const [draftName, setDraftName] = useState(name);
  const [draftPlan, setDraftPlan] = useState(plan);
  const [error, setError] = useState<string | undefined>();
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    setDraftName(name);
    setDraftPlan(plan);
  }, [name, plan]);
  const save = useMutation({
    mutationFn: (body: { name?: string; plan?: Plan }) => unwrap(api.PATCH('/api/v1/workspace', { body })),
    onSuccess: (answer) => {
      setSaved(`Saved: ${answer.name}, plan ${answer.plan}.`);
      void queryClient.invalidateQueries({ queryKey: ['workspace'] });
      void queryClient.invalidateQueries({ queryKey: ['auth', 'me'] });
      void queryClient.invalidateQueries({ queryKey: ['usage'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    const trimmed = draftName.trim();
    const found = !trimmed ? 'The workspace needs a name.' : trimmed.length > 200 ? 'At most 200 characters.' : undefined;
    setError(found);
    if (found) return focusFirstError(id);
    const body: { name?: string; plan?: Plan } = {};
    if (trimmed !== name) body.name = trimmed;
    if (draftPlan !== plan) body.plan = draftPlan as Plan;
    if (Object.keys(body).length === 0) return setSaved('Nothing to save.');
    save.mutate(body);
  };
  return (
    <form id={id} className="panel" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Name and plan</h2>
      {!canEdit ? (
        <p className="field-hint">Renaming the workspace and changing its plan need the permission manage_billing (owners, by default).</p>
      ) : null}
      <div className="field-row">
        <TextField
          id={`${id}-name`}
          label="Workspace name"
          value={draftName}
          onChange={setDraftName}
          error={error}
          inputProps={{ maxLength: 200, autoComplete: 'off', size: 32, readOnly: !canEdit }}
        />
        <div className="field">
          <label htmlFor={`${id}-plan`}>Plan</label>
          <select id={`${id}-plan`} value={draftPlan} onChange={(event) => setDraftPlan(event.target.value)} disabled={!canEdit}>
            {(PLANS as readonly string[]).includes(plan) ? null : <option value={plan}>{plan}</option>}
            {PLANS.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorNotice error={save.error} title="The workspace was not changed" />
      {canEdit ? (
        <div className="actions">
          <button type="submit" className="button primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
          <span className="copy-status" role="status">
            {saved ?? ''}
          </span>
        </div>
      ) : null}
    </form>
  );
}

export default function WorkspacePage() {
  const workspace = useCurrentWorkspace();
  const usage = useQuery({ queryKey: ['usage'], queryFn: () => unwrap(api.GET('/api/v1/usage')), refetchInterval: 30_000 });
  const tokens = useQuery({
    queryKey: ['api-tokens', 'all'],
    queryFn: () => unwrap(api.GET('/api/v1/api-tokens', { params: { query: { limit: 1000 } } })),
  });
  const pending = useQuery({
    queryKey: ['tasks', 'pending-count'],
    queryFn: async () => {
      const tasks = await unwrap(api.GET('/api/v1/tasks', { params: { query: { limit: 1000 } } }));
      return tasks.filter((task) => task.status === 'pending').length;
    },
    refetchInterval: 30_000,
  });

  const rows = usageRows({
    workspace: workspace.data,
    usage: usage.data,
    activeTokens: tokens.data ? activeTokenCount(tokens.data) : undefined,
    pendingTasks: pending.data,
  });
  const data = workspace.data;

  return (
    <>
      <PageHeader title="Workspace" description="This workspace’s name and plan, how much of the plan it uses, and your own notifications." />
      {workspace.isPending ? (
        <Loading label="Loading the workspace…" />
      ) : !data ? (
        <ErrorNotice error={workspace.error} />
      ) : (
        <>
          <dl className="summary-list panel">
            <div>
              <dt>Plan</dt>
              <dd>{data.plan}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>{data.status}</dd>
            </div>
            <div>
              <dt>Your role</dt>
              <dd>{data.role}</dd>
            </div>
            <div>
              <dt>Runs and logs kept</dt>
              <dd>{formatCount(data.limits.retentionDays)} days</dd>
            </div>
            <div>
              <dt>Run metrics kept</dt>
              <dd>{formatCount(data.limits.metricsRetentionDays)} days</dd>
            </div>
            <div>
              <dt>Created</dt>
              <dd>{formatDateTime(data.created_at)}</dd>
            </div>
          </dl>
          <WorkspaceForm name={data.name} plan={data.plan} canEdit={hasPermission(data, 'manage_billing')} />
        </>
      )}
      <section className="settings-section" aria-labelledby="usage-title">
        <h2 id="usage-title">Usage against the plan</h2>
        <ErrorNotice error={usage.error} title="Usage cannot be shown" />
        <div className="table-wrap">
          <table>
            <caption>What this workspace uses, and the plan’s limits</caption>
            <thead>
              <tr>
                <th scope="col">What</th>
                <th scope="col" className="num">
                  Used
                </th>
                <th scope="col" className="num">
                  Limit
                </th>
                <th scope="col">Share of the limit</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const share = fraction(row);
                return (
                  <tr key={row.label}>
                    <th scope="row">
                      {row.label}
                      {row.note ? <div className="muted">{row.note}</div> : null}
                    </th>
                    <td className="num">{usedText(row)}</td>
                    <td className="num">{limitText(row)}</td>
                    <td>
                      {share === null ? (
                        <span className="muted">–</span>
                      ) : (
                        <>
                          {Math.round(share * 100)} %
                          <span className={`usage-bar ${share >= 0.9 ? 'high' : ''}`} aria-hidden="true">
                            <span style={{ width: `${Math.round(share * 100)}%` }} />
                          </span>
                        </>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>
      <NotificationPreferences />
    </>
  );
}
