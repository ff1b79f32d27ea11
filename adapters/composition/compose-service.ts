/**
 * The server's composition root: from the validated config, which plugins run (built-in and LOADPLANE_PLUGINS, by
 * name) and what each plugin's config slice holds (what the service derives for the built-in ones, the operator's
 * LOADPLANE_PLUGIN_* variables and LOADPLANE_CONFIG file over it), the identity provider's facts and the route wiring
 * (http-app.ts); then the core boots with them. Shared by the Bun and Deno entries and the tests.
 */
import type { Config } from '../../config/schema.ts';
import { type BootFacts, type BootOptions, bootService, type Service, serviceVersion } from '../../core/boot-service.ts';
import type { PluginDefinition } from '../../core/kernel/define-plugin.ts';
import { CLIENT_SECRET_FILE, identityFacts } from './identity-facts.ts';
import { operatorPluginConfig } from './operator-plugin-config.ts';
import { serverPluginDir } from './plugin-directory.ts';
import { loadServerPlugins } from './plugins.ts';
import { wireHttpApp } from './http-app.ts';

export interface ComposeOptions extends Omit<BootOptions, 'settings' | 'plugins' | 'pluginConfig' | 'sharedFiles' | 'identityFacts' | 'httpApp'> {
  config: Readonly<Config>;
  /** Plugin definitions besides the configured ones (tests). */
  extraPlugins?: readonly PluginDefinition[];
  /**
   * Merged over the config slices derived from `config` (tests lower the password KDF cost, for one); the operator's
   * settings (LOADPLANE_PLUGIN_*, LOADPLANE_CONFIG) are merged over both.
   */
  pluginConfigOverrides?: Readonly<Record<string, Record<string, unknown>>>;
  /** Built-in plugins to leave out (tests of a spec tool whose plugin is missing). */
  leaveOut?: readonly string[];
}

/** The bundled admin UI's client in the identity provider (config/keycloak/loadplane-realm.json has it too). */
export const UI_CLIENT_ID = 'loadplane-ui';

/** The built-in plugins' config slices, from the config and what boot worked out (the client secret, the admin). */
export function builtinPluginConfig(config: Readonly<Config>, facts: BootFacts): Record<string, Record<string, unknown>> {
  const { authUrl, clientSecret, bootstrapUsername } = facts;
  const issuer = config.authIssuer ?? `${authUrl}/realms/${config.authRealm}`;
  return {
    'identity-embedded': {
      issuerBaseUrl: authUrl,
      realm: config.authRealm,
      clientId: config.authClientId,
      clientSecret,
      redirectUris: [`${config.publicUrl}/*`],
      // The bundled UI signs in as a public client (code + PKCE, no secret) and returns only to our own origin.
      publicClient: { clientId: UI_CLIENT_ID, redirectUris: [`${config.publicUrl}/*`] },
      ...(bootstrapUsername
        ? {
            bootstrapAdmin: {
              username: bootstrapUsername,
              ...(config.bootstrapAdminPassword ? { password: config.bootstrapAdminPassword } : {}),
            },
          }
        : {}),
    },
    // Tokens name the public issuer; discovery may go through another (back-channel) address. The bundled UI's own
    // client gets tokens that open the API as well.
    'identity-oidc': {
      issuer,
      discoveryBase: `${authUrl}/realms/${config.authRealm}`,
      clientId: config.authClientId,
      otherClientIds: [UI_CLIENT_ID],
    },
    'notify-webhook': { publicUrl: config.publicUrl, workers: config.workers, allowHosts: [...config.webhookAllowHosts] },
    'notify-email': { ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}), publicUrl: config.publicUrl, workers: config.workers },
    // The MCP endpoint reaches REST in process at PUBLIC_URL and bounds its bodies as every route does.
    // ASK AI's service-wide model (AI_*) and the outbound guard's allow list its URL passes, like every user-supplied URL.
    mcp: {
      publicUrl: config.publicUrl,
      maxBodyBytes: config.maxBodyBytes,
      version: serviceVersion,
      allowHosts: [...config.webhookAllowHosts],
      ai: {
        ...(config.aiApiUrl ? { apiUrl: config.aiApiUrl } : {}),
        ...(config.aiApiKey ? { apiKey: config.aiApiKey } : {}),
        ...(config.aiModel ? { model: config.aiModel } : {}),
      },
    },
    // The browser signs in where users reach the provider: the public issuer, as tokens name it.
    'ui-admin': { authority: issuer, clientId: UI_CLIENT_ID, apiBaseUrl: '/api/v1', version: serviceVersion },
  };
}

export async function composeService(options: ComposeOptions): Promise<Service> {
  const { config, extraPlugins, pluginConfigOverrides, leaveOut, ...boot } = options;
  const loaded = await loadServerPlugins({
    extra: config.plugins,
    embeddedIdentity: !config.authUrl,
    ui: config.uiEnabled,
    leaveOut,
    // What `loadplane plugin install` put in $DATA_DIR/plugins, loaded at each start.
    pluginDir: serverPluginDir(config.dataDir),
  });
  const plugins = [...loaded, ...(extraPlugins ?? [])];
  // Before boot opens the database: a wrong setting stops the start at once, naming the plugin and the key.
  const operator = operatorPluginConfig('server', plugins, config.pluginSources, boot.logger);
  return bootService({
    ...boot,
    settings: config,
    plugins,
    identityFacts: (secrets) => identityFacts(config, secrets),
    httpApp: wireHttpApp,
    pluginConfig: (facts) => operator.slices(builtinPluginConfig(config, facts), pluginConfigOverrides),
    // The embedded provider's signing key and client secret: every replica must use the same ones.
    sharedFiles: ['identity/realm-key.json', CLIENT_SECRET_FILE],
  });
}
