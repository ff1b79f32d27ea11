/**
 * ThresholdsEditor({ rows, onChange, error, problems, endpointNames }): the test's thresholds as editable rows (metric,
 * optional endpoint with the script's step names suggested, condition, value in the metric's unit, abort), added and
 * removed; errors shown at the row and field they name.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { ThresholdError, ThresholdField } from './threshold-error';
import { metricUnit, newRow, thresholdMetrics, thresholdOps, type RowProblem, type ThresholdRow } from './threshold-model';

export const MAX_THRESHOLDS = 50;

export function ThresholdsEditor(props: {
  rows: ThresholdRow[];
  onChange(rows: ThresholdRow[]): void;
  error: ThresholdError | null;
  problems: RowProblem[];
  endpointNames?: string[];
}) {
  const { rows, onChange, error, problems, endpointNames = [] } = props;
  const id = useId();
  const addRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const [focusKey, setFocusKey] = useState<string | null>(null);

  // A new row gets the focus on its metric; after a removal, the next row (or the add button) gets it.
  useEffect(() => {
    if (focusKey === null) return;
    if (focusKey === 'add') addRef.current?.focus();
    else listRef.current?.querySelector<HTMLElement>(`[data-row="${focusKey}"] select`)?.focus();
    setFocusKey(null);
  }, [focusKey]);

  const update = (key: string, change: Partial<ThresholdRow>) => onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const add = () => {
    const row = newRow();
    onChange([...rows, row]);
    setFocusKey(row.key);
  };
  const remove = (index: number) => {
    const next = rows.filter((_, i) => i !== index);
    onChange(next);
    setFocusKey(next[index]?.key ?? next[index - 1]?.key ?? 'add');
  };

  const messageAt = (index: number, field: ThresholdField | null): string | null => {
    const problem = problems.find((p) => p.index === index && p.field === field);
    if (problem) return problem.message;
    if (error && error.index === index && error.field === field) return error.message;
    return null;
  };
  const listError = error && (error.index === null || error.index >= rows.length) ? error.message : null;

  return (
    <fieldset className="thresholds-editor" aria-describedby={`${id}-hint`}>
      <legend>Thresholds</legend>
      <p className="field-hint" id={`${id}-hint`}>
        Pass/fail conditions checked on each run&apos;s figures (merged across machines, or one endpoint&apos;s when named). A run
        whose thresholds fail ends failed; with &ldquo;stop the run&rdquo;, it is stopped as soon as that one fails.
      </p>
      {rows.length === 0 ? <p className="muted">No thresholds: runs of this test get no verdict.</p> : null}
      <div className="threshold-rows" ref={listRef}>
        {rows.map((row, index) => {
          const n = index + 1;
          const rowId = `${id}-${row.key}`;
          const fieldError = (field: ThresholdField) => messageAt(index, field);
          const rowError = messageAt(index, null);
          const described = (field: ThresholdField, extra?: string) =>
            [extra, fieldError(field) ? `${rowId}-${field}-error` : ''].filter(Boolean).join(' ') || undefined;
          const unit = metricUnit(row.metric);
          return (
            <fieldset key={row.key} data-row={row.key} className="threshold-row">
              <legend className="visually-hidden">Threshold {n}</legend>
              <div className="field">
                <label htmlFor={`${rowId}-metric`}>Metric</label>
                <select
                  id={`${rowId}-metric`}
                  value={row.metric}
                  onChange={(event) => update(row.key, { metric: event.target.value as ThresholdRow['metric'] })}
                  aria-invalid={fieldError('metric') ? true : undefined}
                  aria-describedby={described('metric')}
                >
                  {thresholdMetrics.map((metric) => (
                    <option key={metric.value} value={metric.value}>
                      {metric.label}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor={`${rowId}-endpoint`}>Endpoint (optional)</label>
                <input
                  id={`${rowId}-endpoint`}
                  className="threshold-endpoint"
                  value={row.endpoint}
                  maxLength={200}
                  placeholder="every request"
                  list={endpointNames.length ? `${id}-endpoints` : undefined}
                  onChange={(event) => update(row.key, { endpoint: event.target.value })}
                  aria-invalid={fieldError('endpoint') ? true : undefined}
                  aria-describedby={described('endpoint')}
                />
              </div>
              <div className="field">
                <label htmlFor={`${rowId}-op`}>Condition</label>
                <select
                  id={`${rowId}-op`}
                  value={row.op}
                  onChange={(event) => update(row.key, { op: event.target.value as ThresholdRow['op'] })}
                  aria-invalid={fieldError('op') ? true : undefined}
                  aria-describedby={described('op')}
                >
                  {thresholdOps.map((op) => (
                    <option key={op.value} value={op.value}>
                      {op.label}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor={`${rowId}-value`}>Value ({unit})</label>
                <span className="input-with-unit">
                  <input
                    id={`${rowId}-value`}
                    className="threshold-value"
                    type="number"
                    inputMode="decimal"
                    min={0}
                    max={row.metric === 'error_rate' ? 100 : undefined}
                    step="any"
                    value={row.value}
                    onChange={(event) => update(row.key, { value: event.target.value })}
                    aria-invalid={fieldError('value') ? true : undefined}
                    aria-describedby={described('value')}
                  />
                  <span className="unit" aria-hidden="true">
                    {unit}
                  </span>
                </span>
              </div>
              <div className="field threshold-abort">
                <label>
                  <input
                    type="checkbox"
                    checked={row.abort}
                    onChange={(event) => update(row.key, { abort: event.target.checked })}
                    aria-invalid={fieldError('abort') ? true : undefined}
                    aria-describedby={described('abort')}
                  />
                  Stop the run when it fails
                </label>
              </div>
              <div className="field threshold-remove">
                <button type="button" className="button" onClick={() => remove(index)} aria-label={`Remove threshold ${n}`}>
                  Remove
                </button>
              </div>
              {(['metric', 'endpoint', 'op', 'value', 'abort'] as const).map((field) =>
                fieldError(field) ? (
                  <p key={field} className="field-error threshold-error" id={`${rowId}-${field}-error`} role="alert">
                    {fieldError(field)}
                  </p>
                ) : null,
              )}
              {rowError ? (
                <p className="field-error threshold-error" role="alert">
                  {rowError}
                </p>
              ) : null}
            </fieldset>
          );
        })}
      </div>
      {endpointNames.length ? (
        <datalist id={`${id}-endpoints`}>
          {endpointNames.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      ) : null}
      {listError ? (
        <p className="field-error" role="alert">
          {listError}
        </p>
      ) : null}
      <button ref={addRef} type="button" className="button" onClick={add} disabled={rows.length >= MAX_THRESHOLDS}>
        Add threshold
      </button>
      {rows.length >= MAX_THRESHOLDS ? <span className="muted"> At most {MAX_THRESHOLDS} thresholds.</span> : null}
    </fieldset>
  );
}
