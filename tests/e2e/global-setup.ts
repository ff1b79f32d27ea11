/**
 * Starts the service for the browser tests as the README's quick start does (`npm start`, which runs
 * `bun adapters/runtime/bun/main.ts`) on a fresh DATA_DIR, a free PORT and a matching PUBLIC_URL, on the embedded
 * database with the built-in local agent; waits for /healthz and reads the first admin's password from
 * `DATA_DIR/initial-admin-password`. The specs read what they need from the environment (see service-info.ts). The
 * function it returns is the teardown: SIGTERM, then wait for the exit.
 *
 * Runs under Node (Playwright's runner), so no Bun API here. E2E_BASE_URL with E2E_DATA_DIR reuses a service that is
 * already running instead (a developer's `npm start`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ENV } from './service-info.ts';

const repoRoot = resolve(import.meta.dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitForFile(path: string, until: number, alive: () => boolean): Promise<string> {
  for (;;) {
    if (existsSync(path)) {
      const text = (await readFile(path, 'utf8')).trim();
      if (text) return text;
    }
    if (!alive()) throw new Error(`the service exited before it wrote ${path}`);
    if (Date.now() > until) throw new Error(`${path} not written in time`);
    await sleep(100);
  }
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env[ENV.baseUrl] && process.env[ENV.dataDir]) {
    const dataDir = process.env[ENV.dataDir]!;
    process.env[ENV.password] ??= (await readFile(join(dataDir, 'initial-admin-password'), 'utf8')).trim();
    process.env[ENV.clientSecret] ??= (await readFile(join(dataDir, 'auth-client-secret'), 'utf8')).trim();
    return async () => {};
  }

  const home = await mkdtemp(join(tmpdir(), 'loadplane-e2e-'));
  const dataDir = join(home, 'data');
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const logPath = join(home, 'service.log');
  const log = createWriteStream(logPath);
  const bun = join(repoRoot, 'node_modules/.bin/bun');

  // The README's environment and nothing of the caller's database or identity provider: `npm start` on a new machine.
  const env: Record<string, string> = {
    PATH: `${join(repoRoot, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? home,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    DATA_DIR: dataDir,
    // Webhooks may target the specs' own receivers on loopback (settings-admin.e2e.ts); other private addresses stay refused.
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
  };
  const child: ChildProcess = spawn(bun, ['adapters/runtime/bun/main.ts'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  // Should the runner itself be killed (a CI timeout), the service goes with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const alive = () => child.exitCode === null && child.signalCode === null;
  const tail = async () => {
    const text = await readFile(logPath, 'utf8').catch(() => '');
    return text.split('\n').slice(-60).join('\n');
  };

  const stop = async () => {
    if (alive()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      if (code !== 0) console.error(`[e2e] the service exited with ${code} on SIGTERM; its log ends:\n${await tail()}`);
    }
    process.off('exit', killOnExit);
    log.end();
    if (process.env.E2E_KEEP_DATA) console.log(`[e2e] kept ${home} (DATA_DIR, service.log)`);
    else await rm(home, { recursive: true, force: true });
  };

  try {
    const until = Date.now() + 120_000;
    for (;;) {
      if (!alive()) throw new Error(`the service exited with ${child.exitCode ?? child.signalCode} before it was ready`);
      const ok = await fetch(`${publicUrl}/healthz`).then((r) => r.status === 200, () => false);
      if (ok) break;
      if (Date.now() > until) throw new Error('the service did not answer /healthz in 120 s');
      await sleep(200);
    }
    process.env[ENV.baseUrl] = publicUrl;
    process.env[ENV.dataDir] = dataDir;
    process.env[ENV.password] = await waitForFile(join(dataDir, 'initial-admin-password'), until, alive);
    process.env[ENV.clientSecret] = await waitForFile(join(dataDir, 'auth-client-secret'), until, alive);
    process.env[ENV.serviceLog] = logPath;
    process.env.E2E_FRESH_SERVICE = '1';
  } catch (error) {
    const text = await tail();
    await stop();
    throw new Error(`${(error as Error).message}\n--- service log ---\n${text}`);
  }
  return stop;
}
