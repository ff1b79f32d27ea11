/**
 * The k6 tool passes the load-tool contract twice: with the loadplane output extension (our build, `--out loadplane`)
 * and through JSON samples (any k6). The real runs need the k6 binary (skipped without it, required in CI).
 */
import { createNodeProcessRunner, describeLoadToolContract, locateEngineOnHost } from 'loadplane/plugin/testing';
import { k6Engine, k6OutputExtensionName, k6OutputProbe } from './engine.ts';
import { createK6Tool } from './k6-tool.ts';

// Found as an agent finds it: K6_BIN, PATH, ~/.cache/loadplane/bin/k6.
const k6 = await locateEngineOnHost(k6Engine, { env: process.env });
const probe = k6.found ? await locateEngineOnHost(k6OutputProbe(k6.path), { env: process.env }) : null;
const noExtension = !k6.found
  ? k6.reason
  : probe?.found && probe.version === k6OutputExtensionName
    ? null
    : `${k6.path} has no loadplane output extension: build ours with \`bash scripts/install-engines k6\``;
const runner = createNodeProcessRunner();

const fixtures = (unavailable: string | null) => ({
  goodScript: "import http from 'k6/http';\nexport default function () { http.get('http://127.0.0.1:1/'); }\n",
  badScripts: ['echo hello', 'function notExported() {}'],
  realRun: {
    // 2 VUs share 10 iterations of one request each: exactly 10 requests, whatever the timing.
    script: (target: string) => `
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
    unavailable,
  },
});

describeLoadToolContract('k6 (loadplane output)', () => createK6Tool({ binary: k6.path, which: runner.which, snapshots: true }), fixtures(noExtension));
describeLoadToolContract('k6 (JSON samples)', () => createK6Tool({ binary: k6.path, which: runner.which }), fixtures(k6.found ? null : k6.reason));
