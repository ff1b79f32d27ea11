/** WebhookForm: create a webhook: URL, events (checkboxes), description. The API checks the target address too. */
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../../../api/client';
import { ErrorNotice } from '../../../components/common/error-notice';
import type { CreatedWebhook } from '../settings-types';
import { focusFirstError, TextField } from '../../../components/common/text-field';
import { EVENTS, emptyWebhookDraft, eventHelp, validateWebhookDraft, webhookBody, type WebhookDraft, type WebhookErrors } from './webhook-model';

export function WebhookForm({ onCreated, onCancel }: { onCreated(webhook: CreatedWebhook): void; onCancel(): void }) {
  const id = useId().replace(/:/g, '');
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<WebhookDraft>(emptyWebhookDraft);
  const [errors, setErrors] = useState<WebhookErrors>({});
  const change = (patch: Partial<WebhookDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const create = useMutation({
    mutationFn: (body: ReturnType<typeof webhookBody>) => unwrap(api.POST('/api/v1/webhooks', { body })),
    onSuccess: (webhook) => {
      void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      onCreated(webhook);
    },
    onError: (error) => {
      // A refused target (private, loopback ...) is the URL's fault: show the API's reason at the field.
      if (error instanceof ApiError && error.status === 400 && /url|address|host/i.test(error.message)) {
        setErrors({ url: error.message });
        focusFirstError(id);
      }
    },
  });
  const fieldError = create.error instanceof ApiError && create.error.status === 400 && errors.url === create.error.message;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateWebhookDraft(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(id);
    create.mutate(webhookBody(draft));
  };

  return (
    <form id={id} className="panel" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>New webhook</h2>
      <TextField
        id={`${id}-url`}
        label="Payload URL"
        value={draft.url}
        onChange={(url) => change({ url })}
        error={errors.url}
        hint="Loadplane POSTs a signed JSON envelope here. Private and loopback addresses are refused unless the operator allows them (WEBHOOK_ALLOW_HOSTS)."
        inputProps={{ type: 'url', autoComplete: 'off', spellCheck: false, size: 48, placeholder: 'https://hooks.example.com/loadplane', autoFocus: true }}
      />
      <fieldset aria-describedby={errors.events ? `${id}-events-error` : undefined} aria-invalid={errors.events ? true : undefined}>
        <legend>Events</legend>
        <div className="checkbox-grid">
          {EVENTS.map((name) => (
            <label className="checkbox" key={name}>
              <input
                type="checkbox"
                name="events"
                value={name}
                aria-invalid={errors.events ? true : undefined}
                checked={draft.events.includes(name)}
                onChange={(event) => change({ events: event.target.checked ? [...draft.events, name] : draft.events.filter((e) => e !== name) })}
              />
              <span>
                <code>{name}</code>
                <span className="muted">{eventHelp[name]}</span>
              </span>
            </label>
          ))}
        </div>
        <p className="field-hint">“Send test” delivers a <code>test.ping</code> whatever you pick.</p>
        {errors.events ? (
          <p className="field-error" id={`${id}-events-error`}>
            {errors.events}
          </p>
        ) : null}
      </fieldset>
      <TextField
        id={`${id}-description`}
        label="Description (optional)"
        value={draft.description}
        onChange={(description) => change({ description })}
        error={errors.description}
        inputProps={{ maxLength: 500, autoComplete: 'off', size: 48 }}
      />
      <ErrorNotice error={fieldError ? null : create.error} title="The webhook was not created" />
      <div className="actions">
        <button type="submit" className="button primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create webhook'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
