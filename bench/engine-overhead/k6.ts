/** k6 in the engine-overhead benchmark: `k6 run` as a user types it, against the binary the agent finds (ours, with the loadplane output). */
import { findEngine } from '../../adapters/agent/engine-locator.ts';
import { k6Engine } from '../../plugins/load-tool-k6/engine.ts';
import type { EngineLeg } from './leg.ts';

// K6_BIN, PATH, ~/.cache/loadplane/bin/k6: the agent's own lookup, so both legs run the same binary.
const located = findEngine(k6Engine, { env: process.env });
const binary = 'path' in located ? located.path : 'k6';

export const leg: EngineLeg = {
  tool: 'k6',
  processName: 'k6',
  scriptFile: 'script.js',
  script: (targetUrl) => `import http from 'k6/http';\n\nexport default function () {\n  http.get('${targetUrl}/');\n}\n`,
  aloneCommand: ({ vus, durationS }) => ({
    // No --out: what a user running k6 alone gets (the end-of-test summary only); --quiet drops the progress bars.
    argv: [binary, 'run', '--no-usage-report', '--no-color', '--quiet', '--vus', String(vus), '--duration', `${durationS}s`, 'script.js'],
  }),
};
