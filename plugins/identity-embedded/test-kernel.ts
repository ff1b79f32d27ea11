/** Test support: a kernel with the embedded provider and the OIDC verifier on in-memory ports, talking in-process. */
import type { AnyElysia } from 'elysia';
import {
  createMemoryDataFiles,
  type Database,
  databasePort,
  type DataFiles,
  dataFilesPort,
  httpRoutesCapability,
  type Logger,
  outboundFetchPort,
  type TokenVerifier,
  tokenVerifierCapability,
} from 'loadplane/plugin';
import { createKernel, type Kernel, openDatabase } from 'loadplane/plugin/testing';
import identityOidc, { type IdentityOidcConfig } from '../identity-oidc/index.ts';
import identityEmbedded, { type BruteForceSettings, type IdentityEmbeddedConfig } from './index.ts';

export const TEST_REALM = 'loadplane';
export const TEST_CLIENT_ID = 'loadplane';
export const TEST_CLIENT_SECRET = 'test-client-secret';
export const TEST_BASE_URL = 'http://localhost/auth';
export const TEST_ISSUER = `${TEST_BASE_URL}/realms/${TEST_REALM}`;
/** For beforeAll/afterAll around a harness: PGlite's first start in a busy test process takes seconds. */
export const HARNESS_TIMEOUT_MS = 60_000;
/** Fast hashing for tests; one test proves the 210000 default separately. */
export const TEST_PASSWORD_ITERATIONS = 1000;

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

export function createCaptureLogger(entries: LogEntry[] = []): Logger & { entries: LogEntry[] } {
  const log = (level: LogEntry['level']) => (message: string, fields?: Record<string, unknown>) => {
    entries.push({ level, message, fields });
  };
  const logger = {
    entries,
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: () => logger,
  };
  return logger;
}

export interface IdpHarnessOptions {
  files?: DataFiles;
  /** A PGlite directory that outlives the harness (restart tests); in memory when unset. */
  pgliteDir?: string;
  /** Over the test defaults; `bruteForce` is completed from its own defaults by the kernel. */
  embedded?: Partial<Omit<IdentityEmbeddedConfig, 'bruteForce'>> & { bruteForce?: Partial<BruteForceSettings> };
  /** Settings of the verifier; false leaves identity-oidc out. */
  oidc?: Partial<IdentityOidcConfig> | false;
}

export interface IdpHarness {
  kernel: Kernel;
  db: Database & { close(): Promise<void> };
  files: DataFiles;
  routes: AnyElysia;
  verifier: TokenVerifier;
  logs: LogEntry[];
  /** URLs the verifier fetched through the outbound-fetch port. */
  fetched: string[];
  request(path: string, init?: RequestInit): Promise<Response>;
  /** POST to the token endpoint with form fields; client credentials in the body unless given otherwise. */
  token(fields: Record<string, string>, init?: { headers?: Record<string, string>; withClient?: boolean }): Promise<Response>;
  /** An access token by the password grant; throws when refused. */
  login(username: string, password: string): Promise<TokenAnswer>;
  stop(): Promise<void>;
}

export interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  refresh_expires_in: number;
  token_type: string;
  scope: string;
  session_state: string;
  id_token?: string;
}

export const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
export const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };

export async function startIdpHarness(options: IdpHarnessOptions = {}): Promise<IdpHarness> {
  const files = options.files ?? createMemoryDataFiles();
  const logger = createCaptureLogger();
  const db = await openDatabase({
    pgliteDir: options.pgliteDir,
    entities: [...(identityEmbedded.entities ?? [])],
    migrations: [...(identityEmbedded.migrations ?? [])],
  });
  let routes: AnyElysia | null = null;
  const fetched: string[] = [];
  // The host's way too: requests for its own origin go to its routes in-process, never over the network.
  const outboundFetch = async (request: Request) => {
    fetched.push(request.url);
    if (!routes) throw new Error('routes not mounted yet');
    return routes.handle(request);
  };
  const plugins = options.oidc === false ? [identityEmbedded] : [identityEmbedded, identityOidc];
  const kernel = await createKernel({
    plugins,
    logger,
    provided: [
      [databasePort, db],
      [dataFilesPort, files],
      [outboundFetchPort, outboundFetch],
    ],
    pluginConfig: {
      'identity-embedded': {
        issuerBaseUrl: TEST_BASE_URL,
        realm: TEST_REALM,
        clientId: TEST_CLIENT_ID,
        clientSecret: TEST_CLIENT_SECRET,
        passwordIterations: TEST_PASSWORD_ITERATIONS,
        ...options.embedded,
      },
      'identity-oidc': { issuer: TEST_ISSUER, ...(options.oidc || {}) },
    },
  });
  routes = kernel.getAll(httpRoutesCapability).find((entry) => entry.name === 'identity-embedded')!.routes;
  const request = (path: string, init?: RequestInit) => routes!.handle(new Request(`http://localhost${path}`, init));
  const token: IdpHarness['token'] = (fields, init = {}) =>
    request(`/auth/realms/${TEST_REALM}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { ...FORM_HEADERS, ...init.headers },
      body: formBody(
        init.withClient === false ? fields : { client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET, ...fields },
      ),
    });
  return {
    kernel,
    db,
    files,
    routes,
    verifier: options.oidc === false ? (null as never) : kernel.get(tokenVerifierCapability),
    logs: logger.entries,
    fetched,
    request,
    token,
    async login(username, password) {
      const response = await token({ grant_type: 'password', username, password });
      if (response.status !== 200) throw new Error(`login ${username} failed: ${response.status} ${await response.text()}`);
      return (await response.json()) as TokenAnswer;
    },
    async stop() {
      await kernel.stop();
      await db.close();
    },
  };
}
