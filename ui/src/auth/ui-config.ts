/** Loads /ui-config.json (served by the server): the IdP authority, the client id and the API base. Exports: UiConfig, loadUiConfig. */

export interface UiConfig {
  authority: string;
  client_id: string;
  api_base_url: string;
  version: string;
}

let pending: Promise<UiConfig> | null = null;

export function loadUiConfig(): Promise<UiConfig> {
  pending ??= fetch('/ui-config.json', { headers: { Accept: 'application/json' } })
    .then(async (response) => {
      if (!response.ok) throw new Error(`The service answered ${response.status} for /ui-config.json: it may be starting or misconfigured.`);
      const body = (await response.json()) as Partial<UiConfig>;
      if (!body.authority || !body.client_id) throw new Error('/ui-config.json names no identity provider.');
      return {
        authority: body.authority,
        client_id: body.client_id,
        api_base_url: body.api_base_url ?? '/api/v1',
        version: body.version ?? '',
      };
    })
    .catch((error: unknown) => {
      pending = null;
      throw error instanceof Error ? error : new Error(String(error));
    });
  return pending;
}
