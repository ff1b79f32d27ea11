/**
 * ModelSettings: the workspace's own ASK AI model, for admins (GET/PUT /api/v1/assistant/settings): the chat
 * completions URL, the model and its API key. The key is write-only: the form says whether one is set, an empty field
 * keeps it, "Remove key" removes it. Without a URL, the service-wide model (AI_*) answers, when the service has one.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { useWorkspace } from '../../workspace/workspace-context';
import { ErrorNotice, Loading } from '../common';

type SettingsChange = { api_url?: string | null; model?: string | null; api_key?: string | null; enabled?: boolean };

export function ModelSettings() {
  const id = useId();
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ['assistant-settings', workspaceId], queryFn: () => unwrap(api.GET('/api/v1/assistant/settings')) });
  const [apiUrl, setApiUrl] = useState('');
  const [model, setModel] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [enabled, setEnabled] = useState(true);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (!settings.data) return;
    setApiUrl(settings.data.api_url ?? '');
    setModel(settings.data.model ?? '');
    setEnabled(settings.data.enabled);
  }, [settings.data]);

  const save = useMutation({
    mutationFn: (body: SettingsChange) => unwrap(api.PUT('/api/v1/assistant/settings', { body })),
    onSuccess: (data) => {
      queryClient.setQueryData(['assistant-settings', workspaceId], data);
      void queryClient.invalidateQueries({ queryKey: ['assistant'] });
      setApiKey('');
      setSaved(true);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    save.mutate({ api_url: apiUrl.trim() || null, model: model.trim() || null, enabled, ...(apiKey ? { api_key: apiKey } : {}) });
  };

  return (
    <details className="ask-ai-settings">
      <summary>Model settings (admins)</summary>
      {settings.isPending ? <Loading /> : null}
      <ErrorNotice error={settings.error} />
      {settings.data ? (
        <form onSubmit={submit}>
          <p className="field-hint">
            {settings.data.service.configured
              ? `Without a URL here, the service-wide model answers (${settings.data.service.model}).`
              : 'The service has no model of its own (AI_API_URL, AI_API_KEY, AI_MODEL): set one here for this workspace.'}
          </p>
          <div className="field">
            <label htmlFor={`${id}-url`}>Chat completions URL</label>
            <input
              id={`${id}-url`}
              type="url"
              value={apiUrl}
              placeholder="https://api.openai.com/v1"
              onChange={(event) => setApiUrl(event.target.value)}
              aria-describedby={`${id}-url-hint`}
            />
            <p id={`${id}-url-hint`} className="field-hint">
              Any OpenAI-compatible endpoint; a private address needs WEBHOOK_ALLOW_HOSTS.
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-model`}>Model</label>
            <input id={`${id}-model`} value={model} placeholder="gpt-4o-mini" onChange={(event) => setModel(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-key`}>API key</label>
            <input
              id={`${id}-key`}
              type="password"
              autoComplete="off"
              value={apiKey}
              placeholder={settings.data.api_key_set ? 'set (leave empty to keep it)' : 'not set'}
              onChange={(event) => setApiKey(event.target.value)}
              aria-describedby={`${id}-key-hint`}
            />
            <p id={`${id}-key-hint`} className="field-hint">
              Stored encrypted; never shown again.
            </p>
          </div>
          <div className="field">
            <label>
              <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} /> ASK AI on for this workspace
            </label>
          </div>
          <ErrorNotice error={save.error} />
          {saved && !save.isPending ? (
            <p className="field-hint" role="status">
              Saved.
            </p>
          ) : null}
          <div className="actions">
            <button type="submit" className="button primary" disabled={save.isPending}>
              Save model
            </button>
            {settings.data.api_key_set ? (
              <button type="button" className="button" disabled={save.isPending} onClick={() => save.mutate({ api_key: null })}>
                Remove key
              </button>
            ) : null}
          </div>
        </form>
      ) : null}
    </details>
  );
}
