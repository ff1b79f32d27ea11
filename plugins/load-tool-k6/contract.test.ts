/** The k6 tool passes the load-tool contract; the real run needs the k6 binary (skipped without it, required in CI). */
import { createNodeProcessRunner, describeLoadToolContract, locateEngineOnHost } from 'loadplane/plugin/testing';
import { k6Engine } from './engine.ts';
import { createK6Tool } from './k6-tool.ts';

// Found as an agent finds it: K6_BIN, PATH, ~/.cache/loadplane/bin/k6.
const k6 = await locateEngineOnHost(k6Engine, { env: process.env });
const runner = createNodeProcessRunner();

describeLoadToolContract('k6', () => createK6Tool({ binary: k6.path, which: runner.which }), {
  goodScript: "import http from 'k6/http';\nexport default function () { http.get('http://127.0.0.1:1/'); }\n",
  badScripts: ['echo hello', 'function notExported() {}'],
  realRun: {
    // 2 VUs share 10 iterations of one request each: exactly 10 requests, whatever the timing.
    script: (target) => `
import http from 'k6/http';
export const options = { vus: 2, iterations: 10 };
export default function () {
  http.get('${target}/contract');
}
export function teardown() {
  console.log('contract run done');
}
`,
    requests: 10,
    hitsTarget: true,
    logContains: 'contract run done',
    unavailable: k6.found ? null : k6.reason,
  },
});
