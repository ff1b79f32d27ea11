/** TokenForm: create an API token: name, scopes (checkboxes; none = full access), expiry (a choice or a date). */
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { CreatedApiToken } from '../../../api/types';
import { ErrorNotice } from '../../../components/common/error-notice';
import { focusFirstError, TextField } from '../../../components/common/text-field';
import { EXPIRY_CHOICES, SCOPES, emptyTokenDraft, scopeHelp, tokenBody, validateTokenDraft, type ExpiryChoice, type TokenDraft, type TokenErrors } from './token-model';

export function TokenForm({ onCreated, onCancel }: { onCreated(token: CreatedApiToken): void; onCancel(): void }) {
  const id = useId().replace(/:/g, '');
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<TokenDraft>(emptyTokenDraft);
  const [errors, setErrors] = useState<TokenErrors>({});
  const change = (patch: Partial<TokenDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const create = useMutation({
    mutationFn: (body: ReturnType<typeof tokenBody>) => unwrap(api.POST('/api/v1/api-tokens', { body })),
    onSuccess: (token) => {
      void queryClient.invalidateQueries({ queryKey: ['api-tokens'] });
      onCreated(token);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateTokenDraft(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(id);
    create.mutate(tokenBody(draft));
  };

  return (
    <form id={id} className="panel" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>New API token</h2>
      <TextField
        id={`${id}-name`}
        label="Name"
        value={draft.name}
        onChange={(name) => change({ name })}
        error={errors.name}
        hint="What uses it, e.g. “CI pipeline” or “grafana”."
        inputProps={{ maxLength: 200, autoComplete: 'off', size: 32, autoFocus: true }}
      />
      <fieldset aria-describedby={`${id}-scopes-hint`}>
        <legend>Scopes</legend>
        <p className="field-hint" id={`${id}-scopes-hint`}>
          Leave all unchecked for full access with your role’s rights. A scoped token reaches only what its scopes open, and never manages
          tokens, members or billing.
        </p>
        <div className="checkbox-grid">
          {SCOPES.map((scope) => (
            <label className="checkbox" key={scope}>
              <input
                type="checkbox"
                name="scopes"
                value={scope}
                checked={draft.scopes.includes(scope)}
                onChange={(event) =>
                  change({ scopes: event.target.checked ? [...draft.scopes, scope] : draft.scopes.filter((s) => s !== scope) })
                }
              />
              <span>
                <code>{scope}</code>
                <span className="muted">{scopeHelp[scope]}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-expiry`}>Expires</label>
          <select
            id={`${id}-expiry`}
            value={draft.expiry}
            onChange={(event) => change({ expiry: event.target.value as ExpiryChoice })}
            aria-invalid={errors.expiry && draft.expiry !== 'custom' ? true : undefined}
          >
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
        {draft.expiry === 'custom' ? (
          <TextField
            id={`${id}-date`}
            label="Expiry date"
            value={draft.date}
            onChange={(date) => change({ date })}
            error={errors.expiry}
            hint="The token stops working at the end of this day (UTC); at most 5 years ahead."
            inputProps={{ type: 'date' }}
          />
        ) : null}
      </div>
      <ErrorNotice error={create.error} title="The token was not created" />
      <div className="actions">
        <button type="submit" className="button primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create token'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
