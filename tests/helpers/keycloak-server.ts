/** A throwaway Keycloak for tests: the cached native distribution in dev mode, realm `loadplane` imported, on free loopback ports. */
// The distribution (KEYCLOAK_HOME, or what `.ci/install-keycloak.sh` put under ~/.cache/loadplane/keycloak) is
// never written to: every start gets a private home in a temp dir, with its own `bin/kc.sh`, `lib/quarkus`
// (Keycloak rewrites it when it re-augments) and `data/` (H2 database, import dir, transaction logs), and
// symlinks to the read-only rest. kc.sh derives the home from its own resolved path, so the private copy of
// kc.sh is what makes this work. Parallel runs therefore never share files or ports. The re-augmentation a
// fresh `start-dev` does (~30 s) is kept under ~/.cache/loadplane/keycloak-build and reused next time.
// Returns null when no distribution or no Java 21+ is found; the caller skips with `keycloakMissingReason()`.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort, repoRoot } from './service-process.ts';

export interface KeycloakServer {
  /** `http://127.0.0.1:<port>`: the AUTH_URL for the service (Keycloak 17+ has no `/auth` prefix). */
  url: string;
  /** The temporary admin of the `master` realm: tokens of another realm and issuer. */
  masterAdmin: { username: string; password: string };
  /** Everything Keycloak printed so far (for failure messages). */
  output(): string;
  /** Stops the whole process group and removes the private home. Safe to call twice. */
  stop(): Promise<void>;
}

export const KEYCLOAK_SKIP_MESSAGE = 'no Keycloak distribution (run `bash .ci/install-keycloak.sh`, or set KEYCLOAK_HOME)';
export const JAVA_SKIP_MESSAGE = 'no Java 21+ for Keycloak (set JAVA_HOME to a JDK 21+, e.g. /usr/lib/jvm/temurin-25-jdk-amd64)';

const REALM_FILE = join(repoRoot, 'config/keycloak/loadplane-realm.json');
const CACHE_ROOT = join(homedir(), '.cache/loadplane');
// Build-time options go into the augmentation: they are part of the reuse key below.
const BUILD_ARGS = ['--health-enabled=true'];
// The realm is brute-force protected (as compose ships it), and Keycloak 26's default detector (login-failures v1,
// DefaultBlockingBruteForceProtector) then refuses a user's login while the bookkeeping of that user's previous login
// still runs on its background `bruteforce` executor: the grant answers "Invalid user credentials" (event
// `user_temporarily_disabled`) though the password is right. Tests sign the same user in back to back (demo through
// three clients in a row), so on a loaded machine, where that executor lags, a grant fails at random. Allowing
// concurrent logins keeps failure counting and lockouts; only the overlap guard goes. A runtime SPI option: no rebuild.
const RUNTIME_ARGS = ['--spi-brute-force-protector--default-brute-force-detector--allow-concurrent-requests=true'];

/** KEYCLOAK_HOME, else the newest version under ~/.cache/loadplane/keycloak; null when neither has bin/kc.sh. */
export function findKeycloakHome(): string | null {
  const explicit = process.env.KEYCLOAK_HOME?.trim();
  if (explicit) return existsSync(join(explicit, 'bin/kc.sh')) ? explicit : null;
  const root = join(CACHE_ROOT, 'keycloak');
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => /^\d+(\.\d+)*$/.test(name) && existsSync(join(root, name, 'bin/kc.sh')))
    .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
  return versions[0] ? join(root, versions[0]) : null;
}

/** The major version of the JDK at `home`: its `release` file, else `java -version`; 0 when unknown. */
function javaMajor(home: string): number {
  const release = safeRead(join(home, 'release')).match(/^JAVA_VERSION="(\d+)/m);
  if (release) return Number(release[1]);
  const probe = spawnSync(join(home, 'bin/java'), ['-version'], { encoding: 'utf8', timeout: 10_000 });
  const version = `${probe.stderr ?? ''}`.match(/version "(\d+)(?:\.(\d+))?/);
  // Java 8 and older report "1.8.0_x".
  return version ? Number(version[1] === '1' ? version[2] : version[1]) : 0;
}

/** A JDK that runs Keycloak 26 (21+): JAVA_HOME, then /usr/lib/jvm/temurin-*, then `java` on PATH. */
export function findJavaHome(): string | null {
  const candidates: string[] = [];
  if (process.env.JAVA_HOME) candidates.push(process.env.JAVA_HOME);
  const jvmRoot = '/usr/lib/jvm';
  if (existsSync(jvmRoot)) {
    const temurins = readdirSync(jvmRoot)
      .filter((name) => /^temurin-\d+-jdk/.test(name))
      .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
    candidates.push(...temurins.map((name) => join(jvmRoot, name)));
  }
  for (const dir of (process.env.PATH ?? '').split(':')) {
    // The default `java` is often a chain of alternatives symlinks; its JDK is two levels above the real binary.
    if (dir && existsSync(join(dir, 'java'))) candidates.push(dirname(dirname(realpathSync(join(dir, 'java')))));
  }
  return candidates.find((home) => existsSync(join(home, 'bin/java')) && javaMajor(home) >= 21) ?? null;
}

/** Why the Keycloak suite cannot run here, or null when it can. */
export function keycloakMissingReason(): string | null {
  if (!findKeycloakHome()) return KEYCLOAK_SKIP_MESSAGE;
  return findJavaHome() ? null : JAVA_SKIP_MESSAGE;
}

/**
 * `port` fixes the HTTP port up front (to start a client in parallel); a free one otherwise, retried if taken meanwhile.
 * `env`: more Keycloak options as variables (compose's KC_HOSTNAME ...); the helper's own ports, host and master admin
 * win over any there (command-line options and the variables set after them).
 */
export async function startKeycloak(options: { port?: number; timeoutMs?: number; env?: Record<string, string> } = {}): Promise<KeycloakServer | null> {
  const kcHome = findKeycloakHome();
  const javaHome = findJavaHome();
  if (!kcHome || !javaHome) return null;
  for (let attempt = 1; ; attempt++) {
    try {
      const httpPort = options.port ?? (await freePort());
      return await startOnce(realpathSync(kcHome), javaHome, httpPort, options.timeoutMs ?? 240_000, options.env ?? {});
    } catch (error) {
      // Another process may have taken a port between the probe and Keycloak's bind.
      if (attempt >= 3 || !/Address already in use|BindException/i.test((error as Error).message)) throw error;
    }
  }
}

async function startOnce(kcHome: string, javaHome: string, httpPort: number, timeoutMs: number, extraEnv: Record<string, string>): Promise<KeycloakServer> {
  const home = mkdtempSync(join(tmpdir(), 'lp-keycloak-'));
  const buildKey = createHash('sha256').update(JSON.stringify([kcHome, safeRead(join(kcHome, 'version.txt')), BUILD_ARGS])).digest('hex');
  const buildCache = join(CACHE_ROOT, 'keycloak-build', buildKey.slice(0, 16));
  const cachedBuild = existsSync(join(buildCache, 'quarkus-application.dat'));
  prepareHome(home, kcHome, cachedBuild ? buildCache : join(kcHome, 'lib/quarkus'));

  const managementPort = await freePort();
  const masterAdmin = { username: 'kc-admin', password: crypto.randomUUID() };
  const child: ChildProcess = spawn(
    join(home, 'bin/kc.sh'),
    [
      'start-dev',
      '--import-realm',
      '--http-host=127.0.0.1',
      `--http-port=${httpPort}`,
      `--http-management-port=${managementPort}`,
      ...BUILD_ARGS,
      ...RUNTIME_ARGS,
    ],
    {
      cwd: home,
      // Its own process group: kc.sh runs java as a child (or execs it after a re-augmentation); stop() ends both.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...extraEnv,
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? home,
        LANG: 'C.UTF-8',
        JAVA_HOME: javaHome,
        KC_BOOTSTRAP_ADMIN_USERNAME: masterAdmin.username,
        KC_BOOTSTRAP_ADMIN_PASSWORD: masterAdmin.password,
      },
    },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    // Keep the tail only: dev mode logs a lot, and failure messages need the end.
    if (output.length > 400_000) output = output.slice(-200_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // kc.sh not executable, or the like: no 'exit' follows, and an unheard 'error' would crash the test process.
  let spawnError: Error | null = null;
  child.once('error', (error) => (spawnError = error));

  let stopped = false;
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const groupAlive = () => {
    try {
      process.kill(-child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  // A suite that never calls stop() (or a crash) must not leave a JVM behind.
  const stopSync = () => {
    killGroup('SIGKILL');
    rmSync(home, { recursive: true, force: true });
  };
  process.on('exit', stopSync);
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stopSync);
    killGroup('SIGTERM');
    const deadline = Date.now() + 15_000;
    await Promise.race([exited, Bun.sleep(15_000)]);
    // The java child may outlive kc.sh for a moment.
    while (groupAlive() && Date.now() < deadline) await Bun.sleep(100);
    killGroup('SIGKILL');
    rmSync(home, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${httpPort}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (spawnError || child.exitCode !== null || child.signalCode !== null) {
      const why = spawnError ? (spawnError as Error).message : (child.exitCode ?? child.signalCode);
      stopped = true;
      process.off('exit', stopSync);
      stopSync();
      throw new Error(`Keycloak exited (${why}) before it was ready:\n${output.slice(-20_000)}`);
    }
    try {
      const response = await fetch(`${url}/realms/loadplane/.well-known/openid-configuration`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Keycloak not ready after ${timeoutMs} ms:\n${output.slice(-20_000)}`);
    }
    await Bun.sleep(250);
  }
  if (!cachedBuild) keepBuild(join(home, 'lib/quarkus'), buildCache);
  return { url, masterAdmin, output: () => output, stop };
}

/** The private home: copies of what Keycloak writes or resolves by path, symlinks to the read-only rest. */
function prepareHome(home: string, kcHome: string, quarkusBuild: string) {
  mkdirSync(join(home, 'bin'));
  mkdirSync(join(home, 'lib'));
  mkdirSync(join(home, 'data/import'), { recursive: true });
  cpSync(join(kcHome, 'bin/kc.sh'), join(home, 'bin/kc.sh'));
  cpSync(join(kcHome, 'lib/quarkus-run.jar'), join(home, 'lib/quarkus-run.jar'));
  cpSync(quarkusBuild, join(home, 'lib/quarkus'), { recursive: true });
  for (const part of ['lib/lib', 'lib/app', 'conf', 'themes', 'providers']) {
    if (existsSync(join(kcHome, part))) symlinkSync(join(kcHome, part), join(home, part));
  }
  cpSync(REALM_FILE, join(home, 'data/import/loadplane-realm.json'));
}

/** Keeps the re-augmented build for the next start: copied aside, then renamed into place, so readers never see half of it. */
function keepBuild(from: string, to: string) {
  const staging = `${to}.${process.pid}.${Date.now()}`;
  try {
    mkdirSync(dirname(to), { recursive: true });
    cpSync(from, staging, { recursive: true });
    renameSync(staging, to);
  } catch {
    // Another run stored it first, or the cache is not writable: the next start just re-augments.
    rmSync(staging, { recursive: true, force: true });
  }
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
}

/**
 * A password grant against Keycloak's token endpoint at `baseUrl` (no `/auth` prefix, unlike the embedded IdP's
 * paths that `passwordGrant` in service-process.ts builds). `host` sends another Host header: Keycloak (no
 * `hostname` set) names the host it was asked under in `iss`, as it does for a client that reaches it elsewhere.
 */
export async function keycloakPasswordGrant(
  baseUrl: string,
  credentials: { username: string; password: string; realm?: string; clientId?: string; clientSecret?: string },
  options: { host?: string } = {},
): Promise<TokenResponse> {
  const form = new URLSearchParams({
    grant_type: 'password',
    client_id: credentials.clientId ?? 'loadplane',
    username: credentials.username,
    password: credentials.password,
    scope: 'openid',
  });
  if (credentials.clientSecret) form.set('client_secret', credentials.clientSecret);
  const response = await fetch(`${baseUrl}/realms/${credentials.realm ?? 'loadplane'}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(options.host ? { host: options.host } : {}) },
    body: form,
  });
  if (response.status !== 200) throw new Error(`Keycloak password grant failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as TokenResponse;
}
