/**
 * What the admin UI's benchmarks share: the service started as `npm start` runs it (`startServiceProcess`, fresh
 * DATA_DIR, free loopback port, PUBLIC_URL to match), Chromium from Playwright (`CHROMIUM_PATH`, default
 * /usr/bin/chromium; never downloaded), sign-in through the embedded IdP's login page with the e2e suite's own
 * `signIn`, the admin's API token, `openQuietPage` for a new context's first page once the browser has finished
 * opening it, and one cleanup that stops everything started, on success, failure or a signal.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { ENV } from '../../tests/e2e/service-info.ts';
import { freePort, passwordGrant, type ServiceProcess, startServiceProcess } from '../../tests/helpers/service-process.ts';

export interface Harness {
  url: string;
  service: ServiceProcess;
  browser: Browser;
  /** The browser's executable and version, for the report. */
  browserName: string;
  password: string;
  clientSecret: string;
  /** An API call as the admin (a fresh password-grant token every 3 minutes). */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** A new context whose page is signed in as the admin through the login page (the UI keeps its user in sessionStorage). */
  signedInPage(): Promise<{ context: BrowserContext; page: Page }>;
  /**
   * The context's first page, once the browser's processes are quiet again. The full browser, headless too, opens each
   * new context's window with browser UI of its own (the omnibox popup's WebUI pages, in a renderer of their own that
   * used ~450 ms of CPU): a cold round that navigated at once timed that beside its page on this machine's 2 vCPUs.
   */
  openQuietPage(context: BrowserContext): Promise<Page>;
}

/** One browser process's type ("browser", "renderer", "GPU", …), id and CPU time so far in seconds (SystemInfo.getProcessInfo). */
export interface BrowserProcess {
  type: string;
  id: number;
  cpuTime: number;
}

/** The browser's processes and the CPU time each has used so far (the Chrome DevTools protocol). */
export async function browserProcesses(browser: Browser): Promise<BrowserProcess[]> {
  const session = await browser.newBrowserCDPSession();
  try {
    return ((await session.send('SystemInfo.getProcessInfo' as never)) as unknown as { processInfo: BrowserProcess[] }).processInfo;
  } finally {
    await session.detach();
  }
}

/** The CPU each process used between two readings, busiest first: "renderer 412 ms (new), browser 61 ms, …". */
export function cpuBetween(before: readonly BrowserProcess[], after: readonly BrowserProcess[]): string {
  return after
    .map((one) => {
      const earlier = before.find((b) => b.id === one.id);
      return { one, ms: (one.cpuTime - (earlier?.cpuTime ?? 0)) * 1000, fresh: !earlier };
    })
    .filter(({ ms }) => ms >= 5)
    .sort((a, b) => b.ms - a.ms)
    .map(({ one, ms, fresh }) => `${one.type} ${ms.toFixed(0)} ms${fresh ? ' (new)' : ''}`)
    .join(', ');
}

/**
 * Waits until the browser's processes together used under `quietShare` of one core over `windowMs`, at most `limitMs`;
 * answers the time waited. A new context opens a window: in the full browser that starts its browser UI's renderer,
 * whose work would otherwise share the cores with the page timed.
 */
async function browserQuiet(browser: Browser, { windowMs = 100, quietShare = 0.05, limitMs = 10_000 } = {}): Promise<number> {
  const cpuSeconds = async () => (await browserProcesses(browser)).reduce((sum, one) => sum + one.cpuTime, 0);
  const started = performance.now();
  let before = await cpuSeconds();
  while (performance.now() - started < limitMs) {
    await Bun.sleep(windowMs);
    const now = await cpuSeconds();
    if ((now - before) * 1000 < windowMs * quietShare) break;
    before = now;
  }
  return performance.now() - started;
}

const cleanups: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | null = null;

/** Runs every cleanup registered so far, newest first, once. */
export function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length) {
      const step = cleanups.pop()!;
      await step().catch((error) => console.error(`cleanup: ${(error as Error).message}`));
    }
  })();
  return cleaning;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    console.error(`bench: ${signal}, stopping what was started`);
    void cleanup().finally(() => process.exit(130));
  });
}

/**
 * Runs `main` and always cleans up; exit code 1 on failure. `main` returns its report, printed after everything it
 * started has stopped, with the machine's load then (other people's work only) beside the load before it started.
 */
export async function runBench(main: () => Promise<string>): Promise<void> {
  try {
    const before = await machineLoad();
    console.error(`bench: machine before start: ${before.text}`);
    const report = await main();
    await cleanup();
    const after = await machineLoad();
    console.log(report);
    console.log(`\nmachine (not counting this benchmark): before ${before.text}; after ${after.text}`);
  } catch (error) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

export async function startHarness(options: { env?: Record<string, string>; headless?: boolean } = {}): Promise<Harness> {
  const home = await mkdtemp(join(tmpdir(), 'loadplane-bench-ui-'));
  cleanups.push(() => rm(home, { recursive: true, force: true }));
  const dataDir = join(home, 'data');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const service = await startServiceProcess({
    port,
    embedded: true,
    timeoutMs: 180_000,
    env: { DATA_DIR: dataDir, PUBLIC_URL: url, LOG_LEVEL: 'warn', ...options.env },
  });
  // The SIGKILL on exit covers a driver that dies without running its cleanups.
  const killOnExit = () => {
    try {
      process.kill(service.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killOnExit);
  cleanups.push(async () => {
    const code = await service.stop();
    process.off('exit', killOnExit);
    if (code !== 0 && code !== null) console.error(`bench: the service exited with ${code}; its output ends:\n${service.output().split('\n').slice(-30).join('\n')}`);
  });

  const password = (await readFile(join(dataDir, 'initial-admin-password'), 'utf8')).trim();
  const clientSecret = (await readFile(join(dataDir, 'auth-client-secret'), 'utf8')).trim();
  // What tests/e2e/fixtures.ts's signIn reads (tests/e2e/service-info.ts).
  process.env[ENV.baseUrl] = url;
  process.env[ENV.dataDir] = dataDir;
  process.env[ENV.password] = password;
  process.env[ENV.clientSecret] = clientSecret;

  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const browser = await chromium.launch({
    executablePath,
    headless: options.headless ?? true,
    // Our own signal handlers close it (with the service); Playwright still kills it should this process die.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  cleanups.push(() => browser.close());

  let token: { value: string; until: number } | null = null;
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    if (!token || token.until < Date.now()) {
      token = { value: await passwordGrant(url, { username: 'admin', password, clientSecret }), until: Date.now() + 3 * 60_000 };
    }
    const response = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token.value}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  };

  const signedInPage = async () => {
    // Imported here: fixtures.ts reads the environment set above when it signs in.
    const { signIn } = await import('../../tests/e2e/fixtures.ts');
    const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page, '/runs');
    return { context, page };
  };

  // `--cold-at-once`: navigate as soon as the page is open, as these benchmarks did before 2026-11-27 (for comparison).
  const atOnce = process.argv.includes('--cold-at-once');
  const openQuietPage = async (context: BrowserContext) => {
    const page = await context.newPage();
    if (!atOnce) await browserQuiet(browser);
    return page;
  };

  const browserName = `${executablePath} ${browser.version()}`;
  console.error(`bench: browser ${browserName}${atOnce ? '; cold pages navigate at once (--cold-at-once)' : ''}`);
  return { url, service, browser, browserName, password, clientSecret, api, signedInPage, openQuietPage };
}

/** The machine's load for the write-up: load average, and the share of all cores busy over `seconds` (from /proc/stat). */
export async function machineLoad(seconds = 2): Promise<{ loadavg: string; busyPercent: number; text: string }> {
  const loadavg = (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
  const sample = async () => {
    const fields = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = fields[3]! + (fields[4] ?? 0);
    return { idle, total: fields.reduce((a, b) => a + b, 0) };
  };
  const before = await sample();
  await Bun.sleep(seconds * 1000);
  const after = await sample();
  const busyPercent = Math.round((100 * (1 - (after.idle - before.idle) / Math.max(1, after.total - before.total))) * 10) / 10;
  return { loadavg, busyPercent, text: `load average ${loadavg}; all cores ${busyPercent}% busy over ${seconds} s` };
}

/** Nearest-rank percentile of `values` (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const median = (values: readonly number[]) => percentile(values, 50);

export function argValue(name: string, fallback: number): number {
  const args = process.argv.slice(2);
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isFinite(value)) throw new Error(`${name} needs a number`);
  return value;
}
