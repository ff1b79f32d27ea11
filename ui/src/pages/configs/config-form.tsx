/** ConfigForm: create or edit a load configuration (vus + duration, or stages) with a live preview; errors at their fields. */
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../../api/client';
import type { LoadConfig } from '../../api/types';
import { ErrorNotice } from '../../components/common/error-notice';
import { bodyOf, draftOf, fieldOfMessage, validate, type ConfigDraft, type FieldErrors } from './config-form-model';
import { TextField } from '../../components/common/text-field';
import { StagesPreview } from '../../components/charts/stages-preview';
import { StagesEditor } from './stages-editor';

function focusFirstError(formId: string) {
  window.requestAnimationFrame(() => {
    document.querySelector<HTMLElement>(`#${CSS.escape(formId)} [aria-invalid="true"]`)?.focus();
  });
}

export function ConfigForm({ config, onDone }: { config: LoadConfig | null; onDone(saved: LoadConfig | null): void }) {
  const id = useId().replace(/:/g, '');
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<ConfigDraft>(() => draftOf(config));
  const [errors, setErrors] = useState<FieldErrors>({});
  const change = (patch: Partial<ConfigDraft>) => setDraft((current) => ({ ...current, ...patch }));

  const save = useMutation({
    mutationFn: (body: ReturnType<typeof bodyOf>) =>
      config
        ? unwrap(api.PATCH('/api/v1/configs/{id}', { params: { path: { id: config.id } }, body }))
        : unwrap(api.POST('/api/v1/configs', { body })),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: ['configs'] });
      onDone(saved);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) {
        setErrors({ [fieldOfMessage(error.message)]: error.message });
        focusFirstError(id);
      }
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstError(id);
      return;
    }
    save.mutate(bodyOf(draft));
  };

  const preview =
    draft.mode === 'constant'
      ? { vus: Number(draft.vus) || 0, duration: draft.duration }
      : { stages: draft.stages.map((s) => ({ duration: s.duration, target: Number(s.target) || 0 })) };
  const formError = errors.form ?? (save.error instanceof ApiError && save.error.status === 400 ? null : save.error);

  return (
    <form id={id} className="panel" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{config ? `Edit ${config.name}` : 'New load configuration'}</h2>
      <TextField
        id={`${id}-name`}
        label="Name"
        value={draft.name}
        onChange={(name) => change({ name })}
        error={errors.name}
        inputProps={{ maxLength: 200, autoComplete: 'off', size: 32 }}
      />
      <fieldset>
        <legend>Load shape</legend>
        <div className="field-row">
          <label className="radio">
            <input type="radio" name={`${id}-mode`} checked={draft.mode === 'constant'} onChange={() => change({ mode: 'constant' })} /> Constant: VUs for a
            duration
          </label>
          <label className="radio">
            <input type="radio" name={`${id}-mode`} checked={draft.mode === 'stages'} onChange={() => change({ mode: 'stages' })} /> Stages: ramps up and
            down
          </label>
        </div>
      </fieldset>
      {draft.mode === 'constant' ? (
        <div className="field-row">
          <TextField
            id={`${id}-vus`}
            label="Virtual users"
            value={draft.vus}
            onChange={(vus) => change({ vus })}
            error={errors.vus}
            hint="1 to 100,000, split across the run's machines."
            inputProps={{ inputMode: 'numeric', autoComplete: 'off' }}
          />
          <TextField
            id={`${id}-duration`}
            label="Duration"
            value={draft.duration}
            onChange={(duration) => change({ duration })}
            error={errors.duration}
            hint="e.g. 30s, 5m, 1h30m; at most 24h."
            inputProps={{ autoComplete: 'off', spellCheck: false }}
          />
        </div>
      ) : (
        <StagesEditor idPrefix={id} stages={draft.stages} errors={errors} onChange={(stages) => change({ stages })} />
      )}
      <h3>Preview</h3>
      <StagesPreview {...preview} width={320} height={110} />
      <ErrorNotice error={formError} />
      <div className="actions">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : config ? 'Save changes' : 'Create configuration'}
        </button>
        <button type="button" className="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
