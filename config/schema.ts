/** The one configuration schema: every variable of the operational contract, validated once at start and frozen. */
import { type Static, Type } from '@sinclair/typebox';
import type { PluginSources } from './plugin-sources.ts';

export const plans = ['starter', 'scale', 'enterprise'] as const;

export const ConfigSchema = Type.Object({
  port: Type.Integer({ minimum: 0, maximum: 65535, description: 'PORT' }),
  host: Type.String({ minLength: 1, description: 'HOST' }),
  publicUrl: Type.String({ pattern: '^https?://[^/]+$', description: 'PUBLIC_URL (origin, no path)' }),
  dataDir: Type.String({ minLength: 1, description: 'DATA_DIR' }),
  databaseUrl: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', description: 'DATABASE_URL' })),
  authUrl: Type.Optional(Type.String({ pattern: '^https?://', description: 'AUTH_URL' })),
  authIssuer: Type.Optional(Type.String({ pattern: '^https?://', description: 'AUTH_ISSUER' })),
  authRealm: Type.String({ pattern: '^[A-Za-z0-9._-]+$', description: 'AUTH_REALM' }),
  authClientId: Type.String({ minLength: 1, description: 'AUTH_CLIENT_ID' }),
  authClientSecret: Type.Optional(Type.String({ minLength: 1, description: 'AUTH_CLIENT_SECRET' })),
  bootstrapAdminUsername: Type.Optional(Type.String({ minLength: 1, description: 'BOOTSTRAP_ADMIN_USERNAME' })),
  bootstrapAdminPassword: Type.Optional(Type.String({ minLength: 8, description: 'BOOTSTRAP_ADMIN_PASSWORD' })),
  secretKey: Type.Optional(Type.String({ minLength: 32, description: 'SECRET_KEY' })),
  webhookAllowHosts: Type.Array(Type.String({ minLength: 1 }), { description: 'WEBHOOK_ALLOW_HOSTS' }),
  trustedProxies: Type.Array(Type.String({ minLength: 1 }), { description: 'TRUSTED_PROXIES' }),
  localAgent: Type.Boolean({ description: 'LOCAL_AGENT' }),
  /**
   * Where the service keeps an API token for an agent of the first workspace (compose's `agent` service reads it from a
   * shared volume with `loadplane agent --token-file`); unset: none.
   */
  agentTokenFile: Type.Optional(Type.String({ minLength: 1, description: 'AGENT_TOKEN_FILE' })),
  /** `on`: the local agent's tools run in the bubblewrap sandbox, or not at all; `off`: unisolated (the operator's risk). */
  agentSandbox: Type.Union([Type.Literal('on'), Type.Literal('off')], { description: 'AGENT_SANDBOX' }),
  /** The local agent measures the machine's capacity (benchmark_capacity) after it registers and when asked; false: never. */
  agentCalibration: Type.Boolean({ description: 'AGENT_CALIBRATION' }),
  /**
   * Bearer token for GET /metrics (the service's own Prometheus metrics), which every caller needs, loopback included;
   * unset: generated once, kept in the database and copied to DATA_DIR/metrics-token.
   */
  metricsToken: Type.Optional(Type.String({ pattern: '^[\\x21-\\x7e]{16,512}$', description: 'METRICS_TOKEN' })),
  smtpUrl: Type.Optional(Type.String({ pattern: '^smtps?://', description: 'SMTP_URL' })),
  /** ASK AI's model, service-wide: an OpenAI-compatible chat completions endpoint (a workspace's admins may set their own). */
  aiApiUrl: Type.Optional(Type.String({ pattern: '^https?://', description: 'AI_API_URL' })),
  aiApiKey: Type.Optional(Type.String({ minLength: 1, description: 'AI_API_KEY' })),
  aiModel: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'AI_MODEL' })),
  defaultPlan: Type.Union(
    plans.map((plan) => Type.Literal(plan)),
    { description: 'DEFAULT_PLAN' },
  ),
  /** Extra plugins by package name, loaded after the built-in ones. */
  plugins: Type.Array(Type.String({ minLength: 1 }), { description: 'LOADPLANE_PLUGINS' }),
  maxBodyBytes: Type.Integer({ minimum: 1024, description: 'MAX_BODY_BYTES' }),
  agentGraceSeconds: Type.Integer({ minimum: 1, maximum: 3600, description: 'AGENT_GRACE_SECONDS' }),
  maxLogLinesPerRun: Type.Integer({ minimum: 100, description: 'MAX_LOG_LINES_PER_RUN' }),
  maxLogBytesPerRun: Type.Integer({ minimum: 1024, description: 'MAX_LOG_BYTES_PER_RUN' }),
  /** 0: a pending task waits as long as it takes (a request may still set its own `pendingTimeout`). */
  pendingTimeoutSeconds: Type.Integer({ minimum: 0, maximum: 30 * 86_400, description: 'PENDING_TIMEOUT_SECONDS' }),
  /** false: this replica serves the API and its agent sockets only; background jobs run on the others. */
  workers: Type.Boolean({ description: 'WORKERS' }),
  /** false: no admin UI at `/` (plugin ui-admin is not loaded; the paths answer 404) and no UI build at start. */
  uiEnabled: Type.Boolean({ description: 'UI_ENABLED' }),
  logLevel: Type.Union(
    ['debug', 'info', 'warn', 'error'].map((level) => Type.Literal(level)),
    { description: 'LOG_LEVEL' },
  ),
  /** Unset: readable lines on a terminal, JSON lines otherwise (the entry decides, it knows whether stderr is one). */
  logFormat: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('pretty')], { description: 'LOG_FORMAT' })),
});

/**
 * The configuration: the schema's variables, and what the operator set for plugins (LOADPLANE_PLUGIN_*, LOADPLANE_CONFIG),
 * kept as written until the plugins are loaded and their schemas can type it (plugin-settings.ts).
 */
export type Config = Static<typeof ConfigSchema> & { readonly pluginSources: PluginSources };
