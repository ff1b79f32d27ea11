/** The k6 tool passes the load-tool contract; the real run needs the k6 binary (skipped without it, required in CI). */
import { createNodeProcessRunner } from '../../adapters/process/node-process-runner.ts';
import { describeLoadToolContract } from '../../tests/contract/load-tool.ts';
import { findK6, k6MissingReason } from '../../tests/helpers/k6-binary.ts';
import { createK6Tool } from './k6-tool.ts';

const k6 = findK6();
const runner = createNodeProcessRunner();

describeLoadToolContract('k6', () => createK6Tool({ binary: k6 ?? 'k6', which: runner.which }), {
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
    unavailable: k6 ? null : k6MissingReason,
  },
});
