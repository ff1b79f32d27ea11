/** The Artillery tool passes the load-tool contract; the real run needs Artillery (skipped without it, required in CI). */
import { createNodeProcessRunner, describeLoadToolContract, locateEngineOnHost } from 'loadplane/plugin/testing';
import { createArtilleryTool } from './artillery-tool.ts';
import { artilleryEngine } from './engine.ts';

// Found as an agent finds it: ARTILLERY_BIN, PATH, ~/.cache/loadplane/artillery/<version>/node_modules/.bin/artillery.
const artillery = await locateEngineOnHost(artilleryEngine, { env: process.env });
const runner = createNodeProcessRunner();

describeLoadToolContract('artillery', () => createArtilleryTool({ binary: artillery.path, which: runner.which }), {
  goodScript: 'config:\n  target: http://127.0.0.1:1\n  phases:\n    - duration: 1\n      arrivalRate: 1\nscenarios:\n  - flow:\n      - get:\n          url: /\n',
  badScripts: [
    'echo hello',
    // YAML, but not an Artillery script: no scenarios.
    'config:\n  target: http://127.0.0.1:1\n',
    // Not YAML at all.
    'config: [unclosed\n',
  ],
  realRun: {
    // Exactly 5 virtual users (arrivalCount), each making 2 requests: 10, whatever the timing.
    script: (target) => `
config:
  target: "${target}"
  phases:
    - duration: 1
      arrivalCount: 5
scenarios:
  - flow:
      - get:
          url: "/contract"
      - get:
          url: "/contract"
      - log: "contract run done"
`,
    requests: 10,
    hitsTarget: true,
    logContains: 'contract run done',
    unavailable: artillery.found ? null : artillery.reason,
  },
});
