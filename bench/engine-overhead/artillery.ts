/**
 * Artillery in the engine-overhead benchmark: each virtual user GETs the target 500 times in a loop, as fast as it
 * can. Artillery's load is arrivals per second, so a load config's VUs become `arrivalRate` for the duration (as the
 * plugin maps them); the alone leg passes the same phase with `--overrides`, so both legs do the same fixed work
 * (vus x duration x 500 requests) and the users pile up until Artillery saturates: requests/s then compares speed, not
 * the arrival rate. Through Loadplane the agent adds its per-response hook (one histogram snapshot per second per worker).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { findEngine } from '../../adapters/agent/engine-locator.ts';
import { artilleryEngine } from '../../plugins/load-tool-artillery/engine.ts';
import type { EngineLeg } from './leg.ts';

/** The artillery the agent would find (ARTILLERY_BIN, PATH, the cache), else `artillery`. */
function artilleryLauncher(): string {
  const found = findEngine(artilleryEngine, { env: process.env, dir: join(homedir(), '.cache/loadplane') });
  return 'path' in found ? found.path : 'artillery';
}

export const leg: EngineLeg = {
  tool: 'artillery',
  processName: 'node',
  scriptFile: 'script.yml',
  script: (targetUrl) => `config:
  target: "${targetUrl}"
  phases:
    - duration: 10
      arrivalRate: 1
scenarios:
  - flow:
      - loop:
          - get:
              url: "/"
        count: 500
`,
  aloneCommand: ({ workDir, vus, durationS }) => ({
    argv: [
      artilleryLauncher(),
      'run',
      '--overrides',
      JSON.stringify({ config: { phases: [{ duration: durationS, arrivalRate: vus }] } }),
      join(workDir, 'script.yml'),
    ],
    // As a user without network beyond the target would: no telemetry (Artillery still tries to send one event).
    env: { ARTILLERY_DISABLE_TELEMETRY: 'true' },
  }),
};
