/** NotificationPreferences: your e-mail opt-ins for this workspace's runs (GET/PUT /notification-preferences). */
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { ErrorNotice } from '../../../components/common/error-notice';
import { Loading } from '../../../components/common/loading';
import type { NotificationPreferences as Preferences } from '../settings-types';

const key = ['notification-preferences'] as const;

export function NotificationPreferences() {
  const queryClient = useQueryClient();
  const preferences = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET('/api/v1/notification-preferences')) });
  const [draft, setDraft] = useState<Preferences['email'] | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (preferences.data) setDraft(preferences.data.email);
  }, [preferences.data]);
  const save = useMutation({
    mutationFn: (body: Preferences) => unwrap(api.PUT('/api/v1/notification-preferences', { body })),
    onSuccess: (answer) => {
      queryClient.setQueryData(key, answer);
      setSaved(true);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft) save.mutate({ email: draft });
  };
  const change = (patch: Partial<Preferences['email']>) => {
    setSaved(false);
    setDraft((current) => (current ? { ...current, ...patch } : current));
  };

  return (
    <section className="panel settings-section" aria-labelledby="notifications-title">
      <h2 id="notifications-title">E-mail notifications</h2>
      <p className="field-hint">
        For you only, in this workspace. Mail goes to the address of your identity, and only when the operator configured a mail server
        (<code>SMTP_URL</code>). Cancelled runs send none.
      </p>
      {preferences.isPending ? (
        <Loading label="Loading your preferences…" />
      ) : !draft ? (
        <ErrorNotice error={preferences.error} />
      ) : (
        <form onSubmit={submit}>
          <fieldset>
            <legend>E-mail me when a run of this workspace</legend>
            <label className="checkbox">
              <input type="checkbox" checked={draft.on_failed} onChange={(event) => change({ on_failed: event.target.checked })} />
              <span>fails</span>
            </label>
            <label className="checkbox">
              <input type="checkbox" checked={draft.on_completed} onChange={(event) => change({ on_completed: event.target.checked })} />
              <span>completes</span>
            </label>
          </fieldset>
          <ErrorNotice error={save.error} title="Your preferences were not saved" />
          <div className="actions">
            <button type="submit" className="button primary" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save preferences'}
            </button>
            <span className="copy-status" role="status">
              {saved ? 'Saved' : ''}
            </span>
          </div>
        </form>
      )}
    </section>
  );
}
