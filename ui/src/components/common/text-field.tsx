/** TextField: a labelled input with its hint and its error (aria-invalid, aria-describedby), for every form; focusFirstError. */
import type { InputHTMLAttributes } from 'react';

export function TextField(props: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  hint?: string;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
}) {
  const { id, label, value, onChange, error, hint, inputProps } = props;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        {...inputProps}
      />
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

/** Moves focus to the first invalid field of a form (after React rendered the errors). */
export function focusFirstError(formId: string): void {
  window.requestAnimationFrame(() => {
    document.querySelector<HTMLElement>(`#${CSS.escape(formId)} [aria-invalid="true"]`)?.focus();
  });
}
