/** CopyButton({ text, label? }): copies text to the clipboard and says so (politely, for screen readers too). */
import { useEffect, useState } from 'react';

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = window.setTimeout(() => setState('idle'), 2500);
    return () => window.clearTimeout(timer);
  }, [state]);
  return (
    <>
      <button
        type="button"
        className="button"
        onClick={() => {
          navigator.clipboard
            .writeText(text)
            .then(() => setState('copied'))
            .catch(() => setState('failed'));
        }}
      >
        {label}
      </button>
      <span className="copy-status" role="status" aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copying failed: select the text and copy it' : ''}
      </span>
    </>
  );
}
