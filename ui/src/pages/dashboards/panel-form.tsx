/**
 * PanelForm: add or edit a dashboard panel: title, chart, metric, how series split, filters by run, test and machine,
 * step, and other query parameters. Checks before saving; the API's message shown when the save fails.
 */
import { useId, useState, type FormEvent } from 'react';
import { ErrorNotice } from '../../components/common/error-notice';
import { TextField } from '../../components/common/text-field';
import { CHART_TYPES, METRICS, queryText } from './metric-query';
import { draftOfPanel, panelOfDraft, validatePanel, type Panel, type PanelDraft, type PanelErrors } from './panel-draft';

export interface Choice {
  value: string;
  label: string;
}

const SPLITS: Choice[] = [
  { value: 'run', label: 'Run' },
  { value: 'machine', label: 'Machine' },
  { value: 'test', label: 'Test' },
  { value: '', label: 'Nothing: one series' },
];

/** The choices, plus the current value when it is not one of them (a stored `!value` or `~regex` filter). */
function withCurrent(choices: Choice[], current: string): Choice[] {
  return !current || choices.some((c) => c.value === current) ? choices : [...choices, { value: current, label: current }];
}

function Select(props: { id: string; label: string; value: string; onChange(value: string): void; choices: Choice[]; hint?: string; error?: string }) {
  const { id, label, value, onChange, choices, hint, error } = props;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} aria-describedby={described} aria-invalid={error ? true : undefined}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function PanelForm(props: {
  panel: Panel | null;
  runs: Choice[];
  tests: Choice[];
  machines: Choice[];
  saving: boolean;
  error: unknown;
  onSave(panel: Panel): void;
  onCancel(): void;
}) {
  const { panel, runs, tests, machines, saving, error, onSave, onCancel } = props;
  const id = useId().replace(/:/g, '');
  const [draft, setDraft] = useState<PanelDraft>(() => draftOfPanel(panel));
  const [errors, setErrors] = useState<PanelErrors>({});
  const change = (patch: Partial<PanelDraft>) => setDraft((current) => ({ ...current, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validatePanel(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      window.requestAnimationFrame(() => document.querySelector<HTMLElement>(`#${CSS.escape(id)} [aria-invalid="true"]`)?.focus());
      return;
    }
    onSave(panelOfDraft(draft));
  };

  return (
    <form id={id} className="panel panel-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{panel ? `Edit panel ${panel.title}` : 'New panel'}</h2>
      <div className="field-row">
        <TextField
          id={`${id}-title-input`}
          label="Title"
          value={draft.title}
          onChange={(title) => change({ title })}
          error={errors.title}
          inputProps={{ maxLength: 200, autoComplete: 'off', size: 30 }}
        />
        <Select
          id={`${id}-chart`}
          label="Chart"
          value={draft.chart}
          onChange={(chart) => change({ chart: chart as PanelDraft['chart'] })}
          choices={CHART_TYPES.map((c) => ({ value: c, label: c }))}
        />
        <Select
          id={`${id}-metric`}
          label="Metric"
          value={draft.metric}
          onChange={(metric) => change({ metric })}
          error={errors.metric}
          choices={withCurrent(
            METRICS.map((m) => ({ value: m.name, label: `${m.label} (${m.name})` })),
            draft.metric,
          )}
        />
        <Select id={`${id}-by`} label="One series per" value={draft.by} onChange={(by) => change({ by })} choices={withCurrent(SPLITS, draft.by)} />
      </div>
      <fieldset>
        <legend>Filters</legend>
        <div className="field-row">
          <Select
            id={`${id}-run`}
            label="Run"
            value={draft.run}
            onChange={(run) => change({ run })}
            error={errors.run}
            choices={withCurrent([{ value: '', label: 'Any run' }, ...runs], draft.run)}
          />
          <Select
            id={`${id}-test`}
            label="Test"
            value={draft.test}
            onChange={(test) => change({ test })}
            error={errors.test}
            choices={withCurrent([{ value: '', label: 'Any test' }, ...tests], draft.test)}
          />
          <Select
            id={`${id}-machine`}
            label="Machine"
            value={draft.machine}
            onChange={(machine) => change({ machine })}
            error={errors.machine}
            choices={withCurrent([{ value: '', label: 'Any machine' }, ...machines], draft.machine)}
          />
        </div>
      </fieldset>
      <div className="field-row">
        <TextField
          id={`${id}-step`}
          label="Step (optional)"
          value={draft.step}
          onChange={(step) => change({ step })}
          error={errors.step}
          hint="One point per step, e.g. 10s or 1m. Empty: the range divided into 250 points."
          inputProps={{ autoComplete: 'off', spellCheck: false, size: 10 }}
        />
        <TextField
          id={`${id}-extra`}
          label="Other query parameters (optional)"
          value={draft.extra}
          onChange={(extra) => change({ extra })}
          error={errors.extra}
          hint="As a query string, e.g. run=!<id> or machine=~gen-.*; filters take value, !value, ~regex or !~regex."
          inputProps={{ autoComplete: 'off', spellCheck: false, size: 40 }}
        />
      </div>
      <p className="muted">
        Query: <code>{queryText(panelOfDraft(draft).query)}</code>
      </p>
      <ErrorNotice error={errors.form ?? error} title={errors.form ? undefined : 'The panel was not saved'} />
      <div className="actions">
        <button type="submit" className="button primary" disabled={saving}>
          {saving ? 'Saving…' : panel ? 'Save panel' : 'Add panel'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
