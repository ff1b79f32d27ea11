/** StagesEditor: the rows of stages (duration, target VUs), with add and remove, errors at each field. */
import { TextField } from '../../components/common/text-field';
import { newStage, type FieldErrors, type StageDraft } from './config-form-model';

export function StagesEditor(props: { idPrefix: string; stages: StageDraft[]; errors: FieldErrors; onChange(stages: StageDraft[]): void }) {
  const { idPrefix, stages, errors, onChange } = props;
  const update = (index: number, patch: Partial<StageDraft>) =>
    onChange(stages.map((stage, i) => (i === index ? { ...stage, ...patch } : stage)));
  return (
    <fieldset aria-describedby={errors.stages ? `${idPrefix}-stages-error` : undefined}>
      <legend>Stages</legend>
      <p className="field-hint">Each stage goes from the previous stage&apos;s VUs (0 at the start) to its target over its duration.</p>
      {stages.map((stage, index) => (
        <div className="stage-row" key={stage.key}>
          <TextField
            id={`${idPrefix}-stage-${stage.key}-duration`}
            label={`Stage ${index + 1} duration`}
            value={stage.duration}
            onChange={(duration) => update(index, { duration })}
            error={errors[`stages[${index}].duration`]}
            inputProps={{ placeholder: '30s', autoComplete: 'off', spellCheck: false }}
          />
          <TextField
            id={`${idPrefix}-stage-${stage.key}-target`}
            label={`Stage ${index + 1} target VUs`}
            value={stage.target}
            onChange={(target) => update(index, { target })}
            error={errors[`stages[${index}].target`]}
            inputProps={{ inputMode: 'numeric', autoComplete: 'off' }}
          />
          <div className="field">
            <button
              type="button"
              className="button"
              onClick={() => onChange(stages.filter((_, i) => i !== index))}
              disabled={stages.length <= 1}
              aria-label={`Remove stage ${index + 1}`}
            >
              Remove
            </button>
          </div>
        </div>
      ))}
      <button type="button" className="button" onClick={() => onChange([...stages, newStage()])} disabled={stages.length >= 100}>
        Add a stage
      </button>
      {errors.stages ? (
        <p className="field-error" id={`${idPrefix}-stages-error`}>
          {errors.stages}
        </p>
      ) : null}
    </fieldset>
  );
}
