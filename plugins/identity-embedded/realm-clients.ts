/** The realm's clients: the confidential one (secret, every grant) and, when configured, one public client (the UI). */
import type { IdentityEmbeddedConfig } from './config.ts';

export interface RealmClient {
  clientId: string;
  /** null: a public client, which cannot keep a secret and so proves nothing at the token endpoint (RFC 6749 2.1). */
  secret: string | null;
  /** Where its browser flow and its sign-out may return. */
  redirectUris: readonly string[];
  /** Keycloak's "Direct access grants": the password grant. Off for a public client, which must use the browser flow. */
  passwordGrant: boolean;
}

export type ClientsConfig = Pick<IdentityEmbeddedConfig, 'clientId' | 'clientSecret' | 'redirectUris' | 'publicClient'>;

export function realmClients(config: ClientsConfig): RealmClient[] {
  const confidential: RealmClient = {
    clientId: config.clientId,
    secret: config.clientSecret,
    redirectUris: config.redirectUris ?? [],
    passwordGrant: true,
  };
  const { publicClient } = config;
  // Same id twice would make the secret optional for the confidential client: the confidential one wins.
  if (!publicClient || publicClient.clientId === config.clientId) return [confidential];
  return [confidential, { clientId: publicClient.clientId, secret: null, redirectUris: publicClient.redirectUris ?? [], passwordGrant: false }];
}

export function findClient(config: ClientsConfig, clientId: string | undefined): RealmClient | null {
  if (clientId === undefined) return null;
  return realmClients(config).find((client) => client.clientId === clientId) ?? null;
}
