/**
 * SecretOnce({ title, secret, what, onDone }): a secret the API shows only once (a token's plaintext, a webhook's signing
 * secret), with a copy button and a plain "you will not see it again". Takes focus when it appears, so keyboard and
 * screen-reader users land on it.
 */
import { useEffect, useId, useRef } from 'react';
import { CopyButton } from '../../components/common/copy-button';

export function SecretOnce(props: { title: string; secret: string; what: string; copyLabel: string; onDone(): void; children?: React.ReactNode }) {
  const { title, secret, what, copyLabel, onDone, children } = props;
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [secret]);
  return (
    <section className="panel secret-once" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <div className="notice notice-warning">
        <p>
          <strong>Copy {what} now: you will not see it again.</strong> Loadplane keeps only a hash or an encrypted copy; if you lose it,
          rotate to get a new one.
        </p>
      </div>
      <div className="secret">
        <pre>
          <code>{secret}</code>
        </pre>
        <CopyButton text={secret} label={copyLabel} />
      </div>
      {children}
      <div className="actions">
        <button type="button" className="button" onClick={onDone}>
          I have copied it
        </button>
      </div>
    </section>
  );
}
