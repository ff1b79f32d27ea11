/**
 * ConfirmButton({ label, confirmLabel, question, onConfirm, busy?, danger? }): a button that asks first, inline:
 * the question with "confirm" and "keep" buttons, focus moved to the question's confirm button; Escape keeps it.
 */
import { useEffect, useRef, useState } from 'react';

export function ConfirmButton(props: {
  label: string;
  confirmLabel: string;
  question: string;
  onConfirm: () => void;
  busy?: boolean;
  danger?: boolean;
  keepLabel?: string;
}) {
  const { label, confirmLabel, question, onConfirm, busy = false, danger = true, keepLabel = 'Keep it' } = props;
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    if (asking) confirmRef.current?.focus();
    else if (wasAsking.current) openRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <button ref={openRef} type="button" className={`button ${danger ? 'danger' : ''}`} onClick={() => setAsking(true)} disabled={busy}>
        {busy ? `${label}…` : label}
      </button>
    );
  }
  return (
    <span
      className="confirm"
      role="group"
      aria-label={question}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setAsking(false);
      }}
    >
      <span className="confirm-question">{question}</span>
      <button
        ref={confirmRef}
        type="button"
        className={`button ${danger ? 'danger' : 'primary'}`}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="button" onClick={() => setAsking(false)}>
        {keepLabel}
      </button>
    </span>
  );
}
