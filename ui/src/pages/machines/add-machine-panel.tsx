/** AddMachinePanel: creates a fresh API token scoped for an agent and shows, once, the commands that start the agent with it. */
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { CreatedApiToken } from '../../api/types';
import { CopyButton } from '../../components/common/copy-button';
import { ErrorNotice } from '../../components/common/error-notice';
import { AGENT_SCOPES, agentStartCommand, agentTokenFileCommand } from './agent-install';

function defaultName(): string {
  return `agent ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
}

export function AddMachinePanel({ onClose }: { onClose(): void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState(defaultName);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const create = useMutation({
    mutationFn: (tokenName: string) =>
      unwrap(api.POST('/api/v1/api-tokens', { body: { name: tokenName, scopes: [...AGENT_SCOPES] } })),
    onSuccess: (token) => {
      setCreated(token);
      void queryClient.invalidateQueries({ queryKey: ['api-tokens'] });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name.trim() || defaultName());
  };

  const origin = window.location.origin;
  const commands = created ? `${agentTokenFileCommand(created.token)}\n${agentStartCommand(origin)}` : '';

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add a machine</h2>
      <p>
        A machine joins this workspace when an agent runs on it. The agent dials out to this service, so the machine needs no
        inbound port. It needs a token with the scopes <code>{AGENT_SCOPES.join(' ')}</code>; create one here.
      </p>
      {!created ? (
        <form onSubmit={submit}>
          <div className="field">
            <label htmlFor={`${id}-name`}>Token name</label>
            <input id={`${id}-name`} value={name} onChange={(event) => setName(event.target.value)} maxLength={200} size={32} aria-describedby={`${id}-hint`} />
            <p className="field-hint" id={`${id}-hint`}>
              Shown in Settings, API tokens, where you can revoke it.
            </p>
          </div>
          <div className="actions">
            <button type="submit" className="button primary" disabled={create.isPending}>
              {create.isPending ? 'Creating the token…' : 'Create a token and show the command'}
            </button>
            <button type="button" className="button" onClick={onClose}>
              Close
            </button>
          </div>
          <ErrorNotice error={create.error} />
        </form>
      ) : (
        <>
          <div className="notice notice-warning" role="status">
            <p>This token is shown only now. Copy the commands before you leave this page.</p>
          </div>
          <p>On the machine, in a checkout of Loadplane (after <code>npm ci</code>), run:</p>
          <div className="secret">
            <pre>
              <code>{commands}</code>
            </pre>
            <CopyButton text={commands} label="Copy the commands" />
          </div>
          <p className="field-hint">
            The first line writes the token to <code>agent-token</code>, readable only by you (the agent refuses a file every
            user may read); the second starts the agent. The machine appears below once the agent connects.
          </p>
          <div className="actions">
            <button type="button" className="button" onClick={onClose}>
              Done
            </button>
          </div>
        </>
      )}
    </section>
  );
}
