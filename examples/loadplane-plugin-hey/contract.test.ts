/** hey passes Loadplane's load-tool contract; the real run needs the hey binary (skipped without it, required in CI). */
import { describeLoadToolContract, locateEngineOnHost } from '@loadplane/plugin-kit/testing';
import { createHeyTool, heyEngine } from './index.ts';

// Found as an agent finds it: HEY_BIN, PATH, ~/.cache/loadplane/bin/hey.
const hey = await locateEngineOnHost(heyEngine, { env: process.env });

describeLoadToolContract('hey', () => createHeyTool({ binary: hey.path }), {
  goodScript: '{"url": "http://127.0.0.1:1/", "requests": 10, "concurrency": 2}',
  badScripts: [
    'GET http://127.0.0.1/',
    '{"requests": 10}',
    '{"url": "ftp://127.0.0.1/"}',
    '{"url": "http://127.0.0.1/", "requests": 5, "concurrency": 10}',
    '{"url": "http://127.0.0.1/", "duration": "30"}',
    '{"url": "http://127.0.0.1/", "vus": 3}',
  ],
  realRun: {
    // 13 requests by 4 workers: 12 in the first run (3 each), the 13th in a run of its own, since hey drops remainders.
    script: (target) => JSON.stringify({ url: `${target}/contract`, requests: 13, concurrency: 4 }),
    requests: 13,
    hitsTarget: true,
    logContains: 'hey finished a run',
    unavailable: hey.found ? null : hey.reason,
  },
});
