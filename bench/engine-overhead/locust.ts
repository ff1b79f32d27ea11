/**
 * Locust in the engine-overhead benchmark: one HttpUser GETs the target with no wait between requests. Alone it is the
 * plain headless run a user types (`-u/-r/-t`, the stats summary only); through Loadplane the agent adds its request
 * hook (one histogram snapshot per second) and the same users and duration from the load config.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { findEngine } from '../../adapters/agent/engine-locator.ts';
import { locustEngine } from '../../plugins/load-tool-locust/engine.ts';
import type { EngineLeg } from './leg.ts';

/** The locust the agent would find (LOCUST_BIN, PATH, the cache), else `locust`. */
function locustLauncher(): string {
  const found = findEngine(locustEngine, { env: process.env, dir: join(homedir(), '.cache/loadplane') });
  return 'path' in found ? found.path : 'locust';
}

export const leg: EngineLeg = {
  tool: 'locust',
  // The venv's `locust` script: the kernel names the process after it.
  processName: 'locust',
  scriptFile: 'locustfile.py',
  script: (targetUrl) => `from locust import HttpUser, task


class Hammer(HttpUser):
    host = "${targetUrl}"

    @task
    def root(self):
        self.client.get("/")
`,
  aloneCommand: ({ workDir, vus, durationS }) => ({
    argv: [locustLauncher(), '-f', join(workDir, 'locustfile.py'), '--headless', '-u', String(vus), '-r', String(vus), '--run-time', `${durationS}s`, '--only-summary'],
    env: { PYTHONDONTWRITEBYTECODE: '1' },
  }),
};
