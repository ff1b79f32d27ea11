/** Builds the configuration from defaults and environment variables; a wrong value stops the service naming the variable. */
import { Value } from '@sinclair/typebox/value';
import { type Config, ConfigSchema } from './schema.ts';
import { PluginSourcesError, readPluginSources } from './plugin-sources.ts';
import { parseCidr } from '../core/domain/ip-address.ts';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

const blankToUndefined = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

function parseInteger(env: Env, name: string, fallback: number): number {
  const raw = blankToUndefined(env[name]);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  return Number(raw);
}

function parseBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = blankToUndefined(env[name])?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false (on or off), got "${raw}"`);
}

const parseList = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);

/**
 * Reads the contract's variables from `env` (the runtime entry passes process.env) and the plugin settings (the
 * LOADPLANE_PLUGIN_* variables and the LOADPLANE_CONFIG file, read with `readText`); returns a frozen, validated config.
 */
export function loadConfig(env: Env, readText?: (path: string) => string): Readonly<Config> {
  const port = parseInteger(env, 'PORT', 8080);
  const databaseUrl = blankToUndefined(env.DATABASE_URL);
  const candidate = {
    port,
    host: blankToUndefined(env.HOST) ?? '127.0.0.1',
    publicUrl: (blankToUndefined(env.PUBLIC_URL) ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    dataDir: blankToUndefined(env.DATA_DIR) ?? './data',
    databaseUrl,
    authUrl: blankToUndefined(env.AUTH_URL)?.replace(/\/+$/, ''),
    authIssuer: blankToUndefined(env.AUTH_ISSUER)?.replace(/\/+$/, ''),
    authRealm: blankToUndefined(env.AUTH_REALM) ?? 'loadplane',
    authClientId: blankToUndefined(env.AUTH_CLIENT_ID) ?? 'loadplane',
    authClientSecret: blankToUndefined(env.AUTH_CLIENT_SECRET),
    bootstrapAdminUsername: blankToUndefined(env.BOOTSTRAP_ADMIN_USERNAME),
    bootstrapAdminPassword: blankToUndefined(env.BOOTSTRAP_ADMIN_PASSWORD),
    secretKey: blankToUndefined(env.SECRET_KEY),
    webhookAllowHosts: parseList(env.WEBHOOK_ALLOW_HOSTS),
    trustedProxies: parseList(env.TRUSTED_PROXIES),
    localAgent: parseBoolean(env, 'LOCAL_AGENT', databaseUrl === undefined),
    agentTokenFile: blankToUndefined(env.AGENT_TOKEN_FILE),
    agentSandbox: parseBoolean(env, 'AGENT_SANDBOX', true) ? 'on' : 'off',
    agentCalibration: parseBoolean(env, 'AGENT_CALIBRATION', true),
    metricsToken: blankToUndefined(env.METRICS_TOKEN),
    smtpUrl: blankToUndefined(env.SMTP_URL),
    aiApiUrl: blankToUndefined(env.AI_API_URL)?.replace(/\/+$/, ''),
    aiApiKey: blankToUndefined(env.AI_API_KEY),
    aiModel: blankToUndefined(env.AI_MODEL),
    defaultPlan: blankToUndefined(env.DEFAULT_PLAN) ?? 'enterprise',
    plugins: parseList(env.LOADPLANE_PLUGINS),
    maxBodyBytes: parseInteger(env, 'MAX_BODY_BYTES', 2 * 1024 * 1024),
    agentGraceSeconds: parseInteger(env, 'AGENT_GRACE_SECONDS', 30),
    maxLogLinesPerRun: parseInteger(env, 'MAX_LOG_LINES_PER_RUN', 100_000),
    maxLogBytesPerRun: parseInteger(env, 'MAX_LOG_BYTES_PER_RUN', 64 * 1024 * 1024),
    pendingTimeoutSeconds: parseInteger(env, 'PENDING_TIMEOUT_SECONDS', 0),
    workers: parseBoolean(env, 'WORKERS', true),
    uiEnabled: parseBoolean(env, 'UI_ENABLED', true),
    logLevel: blankToUndefined(env.LOG_LEVEL) ?? 'info',
    logFormat: blankToUndefined(env.LOG_FORMAT),
  };
  const errors = [...Value.Errors(ConfigSchema, candidate)];
  if (errors.length > 0) {
    const first = errors[0]!;
    const property = ConfigSchema.properties[first.path.split('/')[1] as keyof typeof ConfigSchema.properties];
    const variable = property?.description ?? first.path;
    // A URL's password is a secret too (DATABASE_URL=postgre://user:pw@db): shown without it.
    const shown =
      variable.includes('PASSWORD') || variable.includes('SECRET') || variable.includes('TOKEN') || variable.endsWith('_KEY')
        ? '(hidden)'
        : JSON.stringify(typeof first.value === 'string' ? first.value.replace(/(\/\/[^/@\s]*?:)[^/@\s]*@/g, '$1***@') : first.value);
    throw new ConfigError(`${variable} is invalid: ${first.message} (got ${shown})`);
  }
  const badProxy = candidate.trustedProxies.find((entry) => !parseCidr(entry));
  if (badProxy !== undefined) {
    throw new ConfigError(`TRUSTED_PROXIES is invalid: ${JSON.stringify(badProxy)} is not an IP address or CIDR range`);
  }
  if (candidate.bootstrapAdminPassword && !candidate.bootstrapAdminUsername) {
    throw new ConfigError('BOOTSTRAP_ADMIN_PASSWORD is set but BOOTSTRAP_ADMIN_USERNAME is not');
  }
  let pluginSources;
  try {
    pluginSources = readPluginSources(env, readText);
  } catch (error) {
    if (error instanceof PluginSourcesError) throw new ConfigError(error.message);
    throw error;
  }
  return Object.freeze({ ...candidate, pluginSources } as Config);
}
