/**
 * Browser tests of the admin UI (`npm run test:e2e`): Playwright drives Debian's Chromium against the real service,
 * started as `npm start` starts it (tests/e2e/global-setup.ts) on a fresh DATA_DIR and a free port. The specs are
 * `tests/e2e/*.e2e.ts`, a name `bun test` does not pick up. Never downloads a browser: CHROMIUM_PATH or
 * /usr/bin/chromium (`apt-get install -y chromium`). Each run rewrites the PNGs of docs/screenshots/.
 *
 * Environment: CHROMIUM_PATH (the browser); E2E_OUTPUT_DIR (traces and screenshots of failures, default
 * $TMPDIR/loadplane-e2e-results); E2E_KEEP_DATA=1 keeps the service's DATA_DIR and log; E2E_BASE_URL with
 * E2E_DATA_DIR runs against a service that is already running (`npm start`) instead of starting one.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const ci = !!process.env.CI;

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.e2e.ts',
  // One worker: the machine is small and the runs share one local agent (a second run would wait for it).
  workers: 1,
  fullyParallel: false,
  forbidOnly: ci,
  retries: 0,
  // Bounds only: the tests wait on conditions. A spec follows a load run of ~10 s, plus starts and page loads.
  timeout: 120_000,
  // The whole suite, service start included (CI runs it once; a few minutes here).
  globalTimeout: 15 * 60_000,
  expect: { timeout: 20_000 },
  globalSetup: './tests/e2e/global-setup.ts',
  // Outside the checkout (which does not ignore Playwright's folders): traces and screenshots of failures.
  outputDir: process.env.E2E_OUTPUT_DIR ?? join(tmpdir(), 'loadplane-e2e-results'),
  reporter: [['list']],
  use: {
    // baseURL is the started service's: the fixture in tests/e2e/fixtures.ts sets it.
    colorScheme: 'light',
    viewport: { width: 1280, height: 800 },
    actionTimeout: 20_000,
    navigationTimeout: 30_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
          // As root in CI, Chromium's sandbox needs user namespaces it may not have.
          args: ['--no-sandbox', '--disable-dev-shm-usage'],
        },
      },
    },
  ],
});
