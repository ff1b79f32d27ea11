/**
 * The UI's config (the IdP authority, the client id and the API base): inlined in the page by the server, else loaded
 * from /ui-config.json. Exports: UiConfig, loadUiConfig.
 */

export interface UiConfig {
  authority: string;
  client_id: string;
  api_base_url: string;
  version: string;
}

let pending: Promise<UiConfig> | null = null;

/** The id of the data block the server puts the config in (plugins/ui-admin/page-html.ts). */
const INLINE_CONFIG_ID = 'loadplane-ui-config';

function configOf(body: Partial<UiConfig>): UiConfig {
  if (!body.authority || !body.client_id) throw new Error('/ui-config.json names no identity provider.');
  return {
    authority: body.authority,
    client_id: body.client_id,
    api_base_url: body.api_base_url ?? '/api/v1',
    version: body.version ?? '',
  };
}

/** The config the server put in the page, or null (an older server, or a page saved without it). */
function inlineConfig(): UiConfig | null {
  const text = document.getElementById(INLINE_CONFIG_ID)?.textContent;
  if (!text) return null;
  try {
    return configOf(JSON.parse(text) as Partial<UiConfig>);
  } catch {
    return null;
  }
}

export function loadUiConfig(): Promise<UiConfig> {
  const inline = pending ? null : inlineConfig();
  if (inline) return (pending = Promise.resolve(inline));
  pending ??= fetch('/ui-config.json', { headers: { Accept: 'application/json' } })
    .then(async (response) => {
      if (!response.ok) throw new Error(`The service answered ${response.status} for /ui-config.json: it may be starting or misconfigured.`);
      return configOf((await response.json()) as Partial<UiConfig>);
    })
    .catch((error: unknown) => {
      pending = null;
      throw error instanceof Error ? error : new Error(String(error));
    });
  return pending;
}
