/**
 * ASK AI's model: the service-wide one (AI_API_URL, AI_API_KEY, AI_MODEL) or a workspace's own, set by its admins
 * (plugin table `assistant_settings`, the key sealed with the service's secret box and never answered back). A
 * workspace's own URL never receives the service-wide key: a workspace that sets a URL sets its key with it.
 */
import { type Database, type SecretBox, sqlOf } from 'loadplane/plugin';

export interface ModelTarget {
  /** The chat completions URL (a base ending in /v1 gets /chat/completions). */
  url: string;
  model: string;
  apiKey: string | null;
  source: 'workspace' | 'service';
}

export interface ServiceModel {
  apiUrl?: string;
  apiKey?: string;
  model?: string;
}

interface Row {
  api_url: string | null;
  model: string | null;
  api_key_sealed: string | null;
  enabled: boolean;
  updated_at: Date | string;
}

export interface SettingsView {
  api_url: string | null;
  model: string | null;
  api_key_set: boolean;
  enabled: boolean;
  updated_at: string | null;
  /** The service-wide model (AI_*), used when the workspace sets none; its key is never shown. */
  service: { configured: boolean; model: string | null };
}

export interface SettingsChange {
  api_url?: string | null;
  model?: string | null;
  /** Absent: kept; null or "": removed; a string: replaced (sealed). */
  api_key?: string | null;
  enabled?: boolean;
}

/** `https://host/v1` and `https://host/v1/chat/completions` alike: the URL the request goes to. */
export function completionsUrl(raw: string): string {
  const url = new URL(raw.trim());
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/chat/completions')) url.pathname = `${path}/chat/completions`;
  return url.href;
}

export const howToConfigure =
  'ASK AI has no model yet. An admin of the service sets one for every workspace with AI_API_URL (an OpenAI-compatible chat completions ' +
  'endpoint, e.g. https://api.openai.com/v1), AI_API_KEY and AI_MODEL; an admin of this workspace can set its own in the ASK AI panel ' +
  '(Model settings) or with PUT /api/v1/assistant/settings {api_url, model, api_key}.';

export function createAssistantSettings(deps: { db: Database; secrets: SecretBox; service: ServiceModel }) {
  const sql = () => sqlOf(deps.db);
  const serviceConfigured = Boolean(deps.service.apiUrl && deps.service.model);

  async function rowOf(workspaceId: string): Promise<Row | null> {
    const [row] = await sql().all<Row>('select api_url, model, api_key_sealed, enabled, updated_at from assistant_settings where workspace_id = ?', [workspaceId]);
    return row ?? null;
  }

  return {
    howToConfigure,

    async view(workspaceId: string): Promise<SettingsView> {
      const row = await rowOf(workspaceId);
      return {
        api_url: row?.api_url ?? null,
        model: row?.model ?? null,
        api_key_set: Boolean(row?.api_key_sealed),
        enabled: row?.enabled ?? true,
        updated_at: row ? new Date(row.updated_at).toISOString() : null,
        service: { configured: serviceConfigured, model: serviceConfigured ? deps.service.model! : null },
      };
    },

    /** The model this workspace's assistant talks to, or why there is none. */
    async targetOf(workspaceId: string): Promise<{ ok: true; target: ModelTarget } | { ok: false; reason: 'disabled' | 'not_configured' | 'key_unreadable' }> {
      const row = await rowOf(workspaceId);
      if (row && !row.enabled) return { ok: false, reason: 'disabled' };
      if (row?.api_url && row.model) {
        let apiKey: string | null = null;
        if (row.api_key_sealed) {
          try {
            apiKey = await deps.secrets.open(row.api_key_sealed);
          } catch {
            return { ok: false, reason: 'key_unreadable' };
          }
        }
        return { ok: true, target: { url: completionsUrl(row.api_url), model: row.model, apiKey, source: 'workspace' } };
      }
      if (serviceConfigured) {
        return { ok: true, target: { url: completionsUrl(deps.service.apiUrl!), model: deps.service.model!, apiKey: deps.service.apiKey ?? null, source: 'service' } };
      }
      return { ok: false, reason: 'not_configured' };
    },

    async update(workspaceId: string, userId: string | null, change: SettingsChange): Promise<SettingsView> {
      const row = await rowOf(workspaceId);
      const apiUrl = change.api_url === undefined ? (row?.api_url ?? null) : change.api_url || null;
      const model = change.model === undefined ? (row?.model ?? null) : change.model || null;
      const sealed =
        change.api_key === undefined ? (row?.api_key_sealed ?? null) : change.api_key ? await deps.secrets.seal(change.api_key) : null;
      const enabled = change.enabled ?? row?.enabled ?? true;
      await sql().all(
        `insert into assistant_settings (workspace_id, api_url, model, api_key_sealed, enabled, updated_by, updated_at) values (?, ?, ?, ?, ?, ?, ?)
         on conflict (workspace_id) do update set api_url = excluded.api_url, model = excluded.model, api_key_sealed = excluded.api_key_sealed,
           enabled = excluded.enabled, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
        [workspaceId, apiUrl, model, sealed, enabled, userId, new Date()],
      );
      return this.view(workspaceId);
    },
  };
}

export type AssistantSettings = ReturnType<typeof createAssistantSettings>;
